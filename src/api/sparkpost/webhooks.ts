// /api/v1/webhooks and the spec's /api/v1/{domain}/webhooks: SparkPost event webhooks stored as
// WebhookTargets. A domain key (or the {domain} path) scopes a webhook to that domain; an account
// key without a path makes an account-wide one. Create and target changes are tested first.
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { badFormat, notFoundError } from "./errors.ts";
import { need, pathDomain } from "./policy.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { readTenant } from "../../core/permissions.ts";
import { readQuery } from "./query.ts";
import { createdLinks, EVENT_MAP, readWebhook, toWire, updatedLinks, type WebhookExtra, type WebhookTarget } from "./webhook-model.ts";
import { checkTarget, pingTarget } from "./webhook-ping.ts";
import { FORMAT } from "../../webhooks/registry.ts";

type Deps = Pick<SurfaceDeps, "webhooks" | "domains" | "outbound">;

/** The domain id webhooks of this request belong to (null: account-wide). */
async function scopeId(request: Request, deps: Deps, principal: Principal, name?: string): Promise<number | null> {
  if (name) return (await pathDomain(request, deps.domains, name)).id;
  return principal.kind === "domain" ? principal.domain?.id ?? null : null;
}

/** SparkPost targets visible here; a domain key sees account-wide ones but may change only its own. */
/** A domain key sees only its domain's webhooks: account-wide ones carry credentials it must not read. */
async function visible(deps: Deps, scope: number | null, principal?: Principal): Promise<WebhookTarget[]> {
  const all = (await deps.webhooks.list(scope, principal && readTenant(principal))).filter((t) => t.format === FORMAT.sparkpost);
  return principal?.kind === "domain" ? all.filter((t) => t.domainId === scope) : all;
}

async function findTarget(deps: Deps, scope: number | null, id: string, forWrite: boolean, principal: Principal): Promise<WebhookTarget> {
  const t = (await visible(deps, scope, principal)).find((w) => w.id === id);
  const isWritable = t && (principal.kind === "account" || t.domainId === scope);
  if (!t || (forWrite && !isWritable)) throw notFoundError(`webhook '${id}' does not exist`);
  return t;
}

/**
 * Whether the primary's account-wide webhook keeps covering every subaccount: SparkPost's PUT
 * `subaccount_id` -1 (the primary and every subaccount) or 0 (the primary only); absent: as it was.
 */
function everyTenantOf(body: unknown, t: WebhookTarget): { everyTenant?: true } {
  const v = (body as { subaccount_id?: unknown } | null)?.subaccount_id;
  if (v === undefined) return t.extra.everyTenant === true ? { everyTenant: true } : {};
  if (t.domainId !== null || (t.tenantId ?? 0) !== 0 || (v !== -1 && v !== 0)) {
    throw badFormat("subaccount_id may be -1 (the primary and every subaccount) or 0 (the primary only), on the primary's account webhooks");
  }
  return v === -1 ? { everyTenant: true } : {};
}

/** The validate body: `{"message": …}` (node client), a bare batch array, or a batch object. */
function validationMessage(body: unknown): unknown {
  if (body && typeof body === "object" && !Array.isArray(body) && "message" in body) return (body as { message: unknown }).message;
  return body === undefined || body === null || (typeof body === "object" && !Object.keys(body).length) ? undefined : body;
}

export function webhookRoutes(deps: Deps, prefix: "" | "/:domain") {
  const egress = deps.outbound;
  const ctx = async (request: Request, params: Record<string, string> | undefined) => {
    const principal = principalOf(request);
    return { principal, scope: await scopeId(request, deps, principal, params?.domain) };
  };
  const app = (a: Elysia) => a.use(permissions)
    .get(`${prefix}/webhooks`, async ({ request, params }) => {
      const { principal, scope } = await ctx(request, params);
      return json(200, { results: (await visible(deps, scope, principal)).map(toWire) });
    }, { permission: need("webhooks.read", { prefix }) })
    .post(`${prefix}/webhooks`, async ({ request, params, body }) => {
      const { principal, scope } = await ctx(request, params);
      const w = readWebhook(body);
      await checkTarget(w.url, egress);
      await pingTarget(egress, { url: w.url, extra: { ...w.extra }, domainId: scope });
      const t = await deps.webhooks.create({ domainId: scope, events: w.native, url: w.url, format: FORMAT.sparkpost,
        extra: { ...w.extra, ...(scope === null && principal.noTenantNamed ? { everyTenant: true } : {}) },
        ...(principal.tenant ? { tenantId: principal.tenant } : {}) });
      return json(200, { results: { id: t.id, links: createdLinks(t.id) } });
    }, { permission: need("webhooks.manage", { prefix }) })
    .get(`${prefix}/webhooks/:id`, async ({ request, params }) => {
      const { principal, scope } = await ctx(request, params);
      const { id: _id, ...rest } = toWire(await findTarget(deps, scope, params.id, false, principal));
      return json(200, { results: rest });
    }, { permission: need("webhooks.read", { prefix }) })
    .put(`${prefix}/webhooks/:id`, async ({ request, params, body }) => {
      const { principal, scope } = await ctx(request, params);
      const t = await findTarget(deps, scope, params.id, true, principal);
      const w = readWebhook(body, { url: t.url, extra: t.extra as unknown as WebhookExtra });
      if (w.url !== t.url) { await checkTarget(w.url, egress); await pingTarget(egress, { ...t, url: w.url, extra: { ...w.extra } }); }
      await deps.webhooks.update({ ...t, url: w.url, events: w.native, extra: { ...w.extra, ...everyTenantOf(body, t) } });
      return json(200, { results: { id: t.id, links: updatedLinks(t.id) } });
    }, { permission: need("webhooks.manage", { prefix }) })
    .delete(`${prefix}/webhooks/:id`, async ({ request, params }) => {
      const { principal, scope } = await ctx(request, params);
      await deps.webhooks.remove((await findTarget(deps, scope, params.id, true, principal)).id);
      return new Response(null, { status: 204 });
    }, { permission: need("webhooks.manage", { prefix }) })
    .post(`${prefix}/webhooks/:id/validate`, async ({ request, params, body }) => {
      const { principal, scope } = await ctx(request, params);
      const t = await findTarget(deps, scope, params.id, true, principal);
      await checkTarget(t.url, egress);
      const response = await pingTarget(egress, t, validationMessage(body));
      return json(200, { results: { msg: "Test POST to endpoint succeeded", response } });
    }, { permission: need("webhooks.manage", { prefix }) })
    .get(`${prefix}/webhooks/:id/batch-status`, async ({ request, params }) => {
      const { principal, scope } = await ctx(request, params);
      await findTarget(deps, scope, params.id, false, principal);
      // Delivery attempts are recorded by webhooks/; this surface has no read access to them yet.
      return json(200, { results: [] });
    }, { permission: need("webhooks.read", { prefix }) });
  if (prefix) return app;
  return (a: Elysia) => app(a)
    .get("/webhooks/events/documentation", ({ request }) => {
      return json(200, { results: documentation() });
    }, { permission: need("webhooks.read") })
    .get("/webhooks/events/samples", async ({ request }) => {
      return json(200, { results: await deps.outbound.sample(FORMAT.sparkpost, (readQuery(request).list("events") ?? []).join(","), null) });
    }, { permission: need("webhooks.read") });
}

/** Which SparkPost event types postern emits, per category (a short form of SparkPost's documentation). */
function documentation() {
  const categories: Record<string, string[]> = {
    message_event: ["injection", "delivery", "bounce", "delay", "policy_rejection", "out_of_band", "spam_complaint"],
    track_event: ["open", "initial_open", "amp_open", "amp_initial_open", "click", "amp_click"],
    gen_event: ["generation_failure", "generation_rejection"], unsubscribe_event: ["list_unsubscribe", "link_unsubscribe"],
  };
  return Object.fromEntries(Object.entries(categories).map(([cat, types]) => [cat, {
    description: cat.replace("_", " "), display_name: cat,
    events: Object.fromEntries(types.map((t) => [t, { description: `postern ${EVENT_MAP[t]} event`, display_name: t, event: {} }])),
  }]));
}
