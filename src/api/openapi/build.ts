// OpenAPI 3.1 documents of the vendor surfaces, built from the routes each surface's router
// mounts (so a document lists exactly what is served), with each vendor's authentication and error
// shapes and the request fields of the main routes (fields.ts). Served at /docs/<surface>.json.
import { FIELDS, type Field } from "./fields.ts";

export interface MountedRoute { method: string; path: string; hooks?: unknown }
export type VendorSurface = "sendgrid" | "mailgun" | "sparkpost";

const errorsList = (item: Record<string, unknown>) => ({ type: "object", required: ["errors"],
  properties: { errors: { type: "array", items: { type: "object", properties: item } } } });

const VENDOR: Record<VendorSurface, { title: string; reference: string; security: Record<string, unknown>; error: Record<string, unknown>; statuses: string[] }> = {
  sendgrid: {
    title: "postern: SendGrid v3 surface", reference: "docs/api/sendgrid.md",
    security: { type: "http", scheme: "bearer", description: "a domain key (sk.…) as `Authorization: Bearer KEY`" },
    error: errorsList({ message: { type: "string" }, field: { type: ["string", "null"] }, help: { type: ["string", "null"] } }),
    statuses: ["400", "401", "403", "404", "405", "413", "429", "500"],
  },
  mailgun: {
    title: "postern: Mailgun surface", reference: "docs/api/mailgun.md",
    security: { type: "http", scheme: "basic", description: "user `api`, password KEY" },
    error: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
    statuses: ["400", "401", "402", "403", "404", "413", "429", "500"],
  },
  sparkpost: {
    title: "postern: SparkPost v1 surface", reference: "docs/api/sparkpost.md",
    security: { type: "apiKey", in: "header", name: "Authorization", description: "the key itself as the Authorization header" },
    error: errorsList({ message: { type: "string" }, code: { type: "string" }, description: { type: "string" } }),
    statuses: ["400", "401", "403", "404", "409", "413", "420", "422", "429", "500"],
  },
};

const REASON: Record<string, string> = { "400": "bad request", "401": "missing or wrong key", "402": "sending limit reached",
  "403": "the key may not do this", "404": "not found", "405": "method not allowed", "409": "conflict", "413": "too large",
  "420": "sending limit reached", "422": "invalid field", "429": "too many requests", "500": "unexpected failure (names its request id)" };

/** Elysia's `/v3/:domain/events/:token` as OpenAPI's `/v3/{domain}/events/{token}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{rest}");

function schemaOf(fields: Record<string, Field>) {
  const required = Object.entries(fields).filter(([, f]) => f.required).map(([k]) => k);
  const properties = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, { type: f.type, description: f.description }]));
  return { type: "object", ...(required.length ? { required } : {}), properties };
}

function operation(surface: VendorSurface, route: MountedRoute) {
  const path = openApiPath(route.path);
  const method = route.method.toLowerCase();
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
  const fields = FIELDS[surface][`${route.method} ${path}`];
  const body = fields && ["post", "put", "patch"].includes(method)
    ? { requestBody: { required: true, content: Object.fromEntries(fields.media.map((m) => [m, { schema: schemaOf(fields.fields) }])) } } : {};
  const query = fields && !["post", "put", "patch"].includes(method)
    ? Object.entries(fields.fields).map(([name, f]) => ({ name, in: "query", required: Boolean(f.required), schema: { type: f.type }, description: f.description })) : [];
  const errors = Object.fromEntries(VENDOR[surface].statuses.map((s) => [s, { $ref: `#/components/responses/E${s}` }]));
  return [method, {
    operationId: `${method}${path.replace(/[{}]/g, "").split(/[^A-Za-z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")}`,
    summary: fields?.summary ?? `${route.method} ${path}`,
    ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
    ...body,
    responses: { "2XX": { description: fields?.success ?? "success, in the vendor's shape (see the reference page)" }, ...errors },
  }] as const;
}

/** The OpenAPI 3.1 document of `surface`, listing exactly `routes`. */
export function buildOpenApi(surface: VendorSurface, routes: MountedRoute[], version: string) {
  const v = VENDOR[surface];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.method === "ALL" || r.method === "HEAD" || r.method === "OPTIONS") continue;
    const [method, op] = operation(surface, r);
    (paths[openApiPath(r.path)] ??= {})[method] = op;
  }
  const responses = Object.fromEntries(v.statuses.map((s) => [`E${s}`, {
    description: REASON[s],
    content: surface === "mailgun" && s === "401" ? { "text/plain": { schema: { type: "string", const: "Forbidden" } } }
      : { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  }]));
  return {
    openapi: "3.1.0",
    info: { title: v.title, version, description: `Only what postern serves; the reference page is ${v.reference}.` },
    servers: [{ url: "/" }],
    security: [{ key: [] }],
    paths,
    components: { securitySchemes: { key: v.security }, schemas: { Error: v.error }, responses },
  };
}
