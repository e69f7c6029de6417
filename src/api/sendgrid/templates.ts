// /v3/templates and /v3/templates/{id}/versions: transactional templates (legacy and dynamic) with
// versions and one active version. A domain key's templates belong to its domain; an account
// key's to the account of the tenant it acts for (on-behalf-of). Handlers read, call the template service, and answer SendGrid's shapes.
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { StoredTemplate } from "../../core/template-model.ts";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf } from "../context.ts";
import { json } from "../errors.ts";
import { AppError, invalidMany, notFound } from "../../core/errors.ts";
import { readJsonBody } from "./body.ts";
import { isObject } from "./fields.ts";
import { newTemplateId, readTemplate, readVersion, toSgTemplate, toSgVersion } from "./template-wire.ts";
import { randomUUID } from "node:crypto";
import { permissions } from "../permission.ts";

const MAX_BODY = 4 * 1024 * 1024;
const READ = { right: "templates.read" } as const;
const MANAGE = { right: "templates.manage" } as const;
const write = { parse: "none" as const, permission: MANAGE };

type Deps = Pick<SurfaceDeps, "templateService">;

function helpers(svc: Deps["templateService"]) {
  const load = async (p: Principal, id: string, access: "read" | "write" = "read") => {
    const t = await svc.find(p, id, access);
    if (!t) throw notFound("Not Found");
    return t;
  };
  const versionOf = (t: StoredTemplate, vid: string) => {
    const v = t.versions.find((x) => x.id === vid);
    if (!v) throw notFound("Not Found");
    return v;
  };
  return { load, versionOf, reread: (p: Principal, t: StoredTemplate) => load(p, t.id) };
}

export function templateRoutes(deps: Deps) {
  const svc = deps.templateService;
  const { load } = helpers(svc);

  return (app: Elysia) => app.use(permissions)
    .post("/v3/templates", async ({ request }) => {
      const p = principalOf(request);
      const { name, generation, issues } = readTemplate(await readJsonBody(request, MAX_BODY));
      if (issues.length) throw invalidMany(issues);
      const t = await svc.create({ id: newTemplateId(generation), ...svc.ownerOf(p), name: name!, description: "", generation, extra: {} });
      return json(201, toSgTemplate(t));
    }, write)
    .get("/v3/templates", async ({ request }) => listTemplates(principalOf(request), new URL(request.url).searchParams), { permission: READ })
    .get("/v3/templates/:id", async ({ request, params }) => json(200, toSgTemplate(await load(principalOf(request), params.id))), { permission: READ })
    .patch("/v3/templates/:id", async ({ request, params }) => {
      const p = principalOf(request);
      const t = await load(p, params.id, "write");
      const body = await readJsonBody(request, MAX_BODY);
      const name = isObject(body) ? body.name : undefined;
      if (typeof name !== "string" || !name.trim() || name.length > 100) throw invalidMany([{ field: "name", message: "name is required (at most 100 characters)" }]);
      return json(200, toSgTemplate(await svc.update(t, { name })));
    }, write)
    .post("/v3/templates/:id", async ({ request, params }) => duplicate(principalOf(request), params.id, await readJsonBody(request, MAX_BODY)), write)
    .delete("/v3/templates/:id", async ({ request, params }) => {
      await svc.remove(await load(principalOf(request), params.id, "write"));
      return new Response(null, { status: 204 });
    }, { permission: MANAGE });

  /** GET /v3/templates: `generations` filters (default legacy); `page_size` pages as `result` + `_metadata`. */
  async function listTemplates(p: Principal, q: URLSearchParams) {
    const wanted = new Set((q.get("generations") ?? "legacy").split(",").map((g) => g.trim()));
    if ([...wanted].some((g) => g !== "legacy" && g !== "dynamic")) throw invalidMany([{ field: "generations", message: "generations must be legacy, dynamic or both" }]);
    const all = (await svc.list(p)).filter((t) => wanted.has(t.generation));
    if (!q.has("page_size")) return json(200, { templates: all.map((t) => toSgTemplate(t, false)) });
    const size = Number(q.get("page_size"));
    if (!Number.isInteger(size) || size < 1 || size > 200) throw invalidMany([{ field: "page_size", message: "page_size must be between 1 and 200" }]);
    const start = Math.max(0, Number(q.get("page_token") ?? 0) || 0);
    const page = all.slice(start, start + size);
    const next = start + size < all.length ? { next: `/v3/templates?page_size=${size}&page_token=${start + size}` } : {};
    return json(200, { result: page.map((t) => toSgTemplate(t, false)), _metadata: { self: `/v3/templates?page_size=${size}&page_token=${start}`, ...next, count: all.length } });
  }

  /** POST /v3/templates/{id}: a copy under a new id (and name), versions included. */
  async function duplicate(p: Principal, id: string, body: unknown) {
    const src = await load(p, id);
    const name = isObject(body) && typeof body.name === "string" && body.name.trim() ? body.name : `Duplicate: ${src.name}`;
    if (name.length > 100) throw new AppError("invalid", "name must be at most 100 characters", { field: "name" });
    const copy = await svc.create({ id: newTemplateId(src.generation), ...svc.ownerOf(p), name, description: src.description, generation: src.generation, extra: src.extra });
    for (const v of src.versions) await svc.putVersion(copy, { ...v, id: randomUUID() });
    return json(201, toSgTemplate(await load(p, copy.id)));
  }
}

/** /v3/templates/{id}/versions…: versions with one active. */
export function templateVersionRoutes(deps: Deps) {
  const svc = deps.templateService;
  const { load, versionOf, reread } = helpers(svc);
  return (app: Elysia) => app.use(permissions)
    .post("/v3/templates/:id/versions", async ({ request, params }) => {
      const p = principalOf(request);
      const t = await load(p, params.id, "write");
      const { input, issues } = readVersion(await readJsonBody(request, MAX_BODY), true);
      if (issues.length) throw invalidMany(issues);
      // SendGrid: the first version of a template becomes active by itself.
      const active = input.active ?? t.versions.length === 0;
      const v = await svc.putVersion(t, { id: randomUUID(), name: input.name!, subject: input.subject, html: input.html, text: input.text, active,
        extra: { generate_plain_content: true, ...input.extra } });
      return json(201, toSgVersion(await reread(p, t), v));
    }, write)
    .get("/v3/templates/:id/versions/:vid", async ({ request, params }) => {
      const t = await load(principalOf(request), params.id);
      return json(200, toSgVersion(t, versionOf(t, params.vid)));
    }, { permission: READ })
    .patch("/v3/templates/:id/versions/:vid", async ({ request, params }) => {
      const p = principalOf(request);
      const t = await load(p, params.id, "write");
      const v = versionOf(t, params.vid);
      const { input, issues } = readVersion(await readJsonBody(request, MAX_BODY), false);
      if (issues.length) throw invalidMany(issues);
      const next = await svc.putVersion(t, { ...v, name: input.name ?? v.name, subject: input.subject ?? v.subject, html: input.html ?? v.html,
        text: input.text ?? v.text, active: input.active ?? v.active, extra: { ...v.extra, ...input.extra } });
      return json(200, toSgVersion(t, next));
    }, write)
    .delete("/v3/templates/:id/versions/:vid", async ({ request, params }) => {
      const t = await load(principalOf(request), params.id, "write");
      versionOf(t, params.vid);
      await svc.removeVersion(t, params.vid);
      return new Response(null, { status: 204 });
    }, { permission: MANAGE })
    .post("/v3/templates/:id/versions/:vid/activate", async ({ request, params }) => {
      const p = principalOf(request);
      const t = await load(p, params.id, "write");
      versionOf(t, params.vid);
      await svc.activate(t, params.vid);
      const after = await reread(p, t);
      return json(200, toSgVersion(after, versionOf(after, params.vid), false));
    }, { permission: MANAGE });
}
