// SparkPost inbound domains (/api/v1/inbound-domains) and relay webhooks (/api/v1/relay-webhooks):
// which hostnames receive and where their mail is relayed as msys.relay_message batches. Kept by
// core/inbound/rules.ts; a domain key manages only its own domain's.
import type { Elysia } from "elysia";
import type { InboundRule, RuleSpecs } from "../../core/inbound/model.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { isObject } from "../sendgrid/fields.ts";
import { badFormat, missingField } from "./errors.ts";
import { need } from "./policy.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";

const READ = { permission: need("inbound.read") };
const MANAGE = { permission: need("inbound.manage") };

type Deps = Pick<SurfaceDeps, "inboundRules">;

const hookJson = (r: InboundRule<"relay-webhook">) => ({
  id: r.id, name: r.spec.name, target: r.spec.target, auth_token: r.spec.authToken, auth_type: "none",
  match: { protocol: r.spec.protocol, domain: r.spec.matchDomain },
});

function str(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw badFormat(`${key} must be a string`);
  return v;
}

function readHook(body: unknown, create: boolean): Partial<RuleSpecs["relay-webhook"]> {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  const match = body.match === undefined ? undefined : isObject(body.match) ? body.match : (() => { throw badFormat("match must be an object"); })();
  const spec = { name: str(body, "name"), target: str(body, "target"), authToken: str(body, "auth_token"),
    matchDomain: match ? str(match, "domain") : undefined, protocol: match ? (str(match, "protocol") ?? "SMTP").toUpperCase() : undefined };
  if (spec.protocol && spec.protocol !== "SMTP") throw badFormat("match.protocol must be SMTP");
  if (create && !spec.target) throw missingField("target is required");
  if (create && !spec.matchDomain) throw missingField("match.domain is required");
  return spec;
}

export function inboundRoutes(deps: Deps) {
  const rules = deps.inboundRules;
  return (app: Elysia) => app.use(permissions)
    .get("/inbound-domains", async ({ request }) => {
      const p = principalOf(request);
      return json(200, { results: (await rules.list(p, "inbound-domain")).map((r) => ({ domain: r.spec.domain })) });
    }, READ)
    .post("/inbound-domains", async ({ request, body }) => {
      const p = principalOf(request);
      const domain = isObject(body) ? str(body, "domain") : undefined;
      if (!domain) throw missingField("domain is required");
      await rules.createInboundDomain(p, domain);
      return json(200, {});
    }, MANAGE)
    .get("/inbound-domains/:domain", async ({ request, params }) => {
      const r = await rules.get(principalOf(request), "inbound-domain", params.domain.toLowerCase());
      return json(200, { results: { domain: r.spec.domain } });
    }, READ)
    .delete("/inbound-domains/:domain", async ({ request, params }) => {
      await rules.remove(principalOf(request), "inbound-domain", params.domain.toLowerCase());
      return new Response(null, { status: 204 });
    }, MANAGE)
    .get("/relay-webhooks", async ({ request }) =>
      json(200, { results: (await rules.list(principalOf(request), "relay-webhook")).map(hookJson) }), READ)
    .post("/relay-webhooks", async ({ request, body }) => {
      const r = await rules.putRelayWebhook(principalOf(request), null, readHook(body, true));
      return json(200, { results: { id: r.id } });
    }, MANAGE)
    .get("/relay-webhooks/:id", async ({ request, params }) =>
      json(200, { results: hookJson(await rules.get(principalOf(request), "relay-webhook", params.id)) }), READ)
    .put("/relay-webhooks/:id", async ({ request, params, body }) => {
      const r = await rules.putRelayWebhook(principalOf(request), params.id, readHook(body, false));
      return json(200, { results: { id: r.id } });
    }, MANAGE)
    .delete("/relay-webhooks/:id", async ({ request, params }) => {
      await rules.remove(principalOf(request), "relay-webhook", params.id);
      return new Response(null, { status: 204 });
    }, MANAGE);
}
