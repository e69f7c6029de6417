// Console: the domain list, adding a domain, a domain's DNS records with their live status, Verify,
// and the settings toggles. Everything is a call into core/domains.ts.
import { Elysia } from "elysia";
import type { Domain } from "../../core/model.ts";
import type { DnsRecord } from "../../core/domain-dns.ts";
import type { DomainSettingsPatch } from "../../core/domains.ts";
import { invalid } from "../../core/errors.ts";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { visibleDomains } from "../visibility.ts";
import { domainFor, field, requiredField } from "./policy.ts";

const item = (d: Domain) => ({ name: d.name, state: d.state, zone: d.zone, createdAt: d.createdAt });

const settings = (d: Domain) => ({
  validation: d.validation, botDetection: d.botDetection, openTracking: d.openTracking, clickTracking: d.clickTracking,
  unsubscribeTracking: d.unsubscribeTracking, limit: d.limitMax ? `${d.limitMax}/${d.limitWindow}` : "",
});

/** ok / missing / wrong as the page shows them, with what DNS answered. */
export const recordStatus = (r: DnsRecord) => ({
  type: r.type, name: r.name, value: r.value, priority: r.priority, purpose: r.purpose, required: r.required,
  status: r.valid === "valid" ? "ok" : r.found?.length ? "wrong" : "missing",
  found: r.found ?? [], lookupFailed: r.valid === "unknown",
});

const TOGGLES = ["validation", "botDetection", "openTracking", "clickTracking", "unsubscribeTracking"] as const;

function toPatch(body: unknown): DomainSettingsPatch {
  const patch: DomainSettingsPatch = {};
  const b = (body ?? {}) as Record<string, unknown>;
  for (const t of TOGGLES) {
    if (b[t] === undefined) continue;
    if (typeof b[t] !== "boolean") throw invalid(`${t} must be true or false`, t);
    patch[t] = b[t] as boolean;
  }
  if (b.limit !== undefined) patch.limit = field(body, "limit") || "0/month";
  // A domain never changes zone: naming another one is refused by the domain service.
  if (b.zone !== undefined) patch.zone = field(body, "zone");
  return patch;
}

export function domainRoutes(deps: ConsoleDeps) {
  const detail = async (d: Domain, records: DnsRecord[]) => ({ ...item(d), settings: settings(d), records: records.map(recordStatus) });
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/domains", async ({ request }) => (await visibleDomains(request, deps.domains)).list.map(item), { permission: { right: "domains.read" } })
    .post("/domains", async ({ request, body }) => {
      // The acting tenant's (a tenant's user, or the switcher's choice); the primary's when reading every tenant.
      const d = await deps.domains.add(requiredField(body, "name"), { zone: field(body, "zone") || undefined, tenant: principalOf(request).tenant });
      return detail(d, await deps.domains.records(d.name));
    }, { permission: { right: "domains.manage", keys: "account" } })
    .get("/domains/:domain", async ({ request, params }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      return detail(domain, await deps.domains.check(domain.name));
    }, { permission: { right: "domains.read", domain: "domain" } })
    .post("/domains/:domain/verify", async ({ request, params }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      const result = await deps.domains.verify(domain.name);
      return detail(result.domain, result.records);
    }, { permission: { right: "domains.manage", domain: "domain" } })
    .patch("/domains/:domain", async ({ request, params, body }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      const d = await deps.domains.set(domain.name, toPatch(body));
      return { ...item(d), settings: settings(d) };
    }, { permission: { right: "domains.manage", domain: "domain" } });
}
