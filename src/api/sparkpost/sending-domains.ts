// /api/v1/sending-domains: SparkPost's sending-domain objects over postern's domains. Status
// fields come from the domain's state (GET) or from a fresh DNS check (verify); creating,
// deleting and verifying need an account key (Omnivery: verify is primary-key only).
import { Elysia } from "elysia";
import type { Domain } from "../../core/model.ts";
import type { DnsRecord } from "../../core/domain-dns.ts";
import type { DomainSettingsPatch } from "../../core/domains.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { badFormat, missingField } from "./errors.ts";
import { need, pathDomain, scopedDomains } from "./policy.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { readQuery } from "./query.ts";
import { isObject, isoSeconds } from "../wire.ts";
import { trackingHostOf } from "../../core/tracking-host-rules.ts";

type Deps = Pick<SurfaceDeps, "domains" | "trackingHosts">;
type Json = Record<string, unknown>;

const DKIM_HEADERS = "from:to:subject:date";
const LIST_FILTERS = ["ownership_verified", "dkim_status", "cname_status", "mx_status", "spf_status", "abuse_at_status",
  "postmaster_at_status", "compliance_status", "is_default_bounce_domain"];

const iso = (ms: number) => isoSeconds(ms, "+00:00");

/** The signing RSA key's record (the one verification requires), not a pending or retiring one of a rotation. */
const signingRsa = (records: DnsRecord[]) => {
  const rsa = records.filter((r) => r.purpose === "dkim" && r.value.includes("k=rsa"));
  return rsa.find((r) => r.required) ?? rsa[0];
};

/** The RSA DKIM record as SparkPost's `dkim` object (selector, public key, signing domain). */
async function dkimOf(deps: Deps, d: Domain) {
  const rec = signingRsa(await deps.domains.records(d.name));
  if (!rec) return undefined;
  return { signing_domain: d.name, selector: rec.name.split("._domainkey.")[0]!, public: /p=([^;\s]+)/.exec(rec.value)?.[1] ?? "", headers: DKIM_HEADERS };
}

/** Status without a DNS look-up: an active domain passed verification, the rest is unverified. */
function statusOf(d: Domain) {
  const isActive = d.state === "active";
  return {
    ownership_verified: isActive, dkim_status: isActive ? "valid" : "unverified", cname_status: "unverified", mx_status: "unverified",
    spf_status: "unverified", abuse_at_status: "unverified", postmaster_at_status: "unverified", verification_mailbox_status: "unverified",
    compliance_status: d.state === "disabled" ? "blocked" : "valid",
  };
}

function listItem(d: Domain) {
  return { domain: d.name, tracking_domain: trackingHostOf(d), status: statusOf(d), shared_with_subaccounts: false, is_default_bounce_domain: false, creation_time: iso(d.createdAt),
    tracking: { open_tracking: d.openTracking, click_tracking: d.clickTracking, unsubscribe_tracking: d.unsubscribeTracking } };
}

function matchesFilters(item: Json, q: ReturnType<typeof readQuery>): boolean {
  const flat: Json = { ...item, ...(item.status as Json) };
  return LIST_FILTERS.every((f) => q.str(f) === undefined || String(flat[f]) === q.str(f));
}

const recordStatus = (r: DnsRecord | undefined) =>
  !r ? "unverified" : r.valid === "valid" ? "valid" : r.valid === "invalid" && r.found?.length ? "invalid" : "unverified";

/** The verify answer: the flat status object plus `dns` with what was looked up and what failed. */
function verifyResult(domain: Domain, records: DnsRecord[]) {
  const by = (purpose: string, pick = (r: DnsRecord) => r.purpose === purpose) => records.find(pick);
  const dkim = signingRsa(records);
  const [spf, cname, mx] = [by("spf"), by("tracking"), by("bounce-mx")];
  const dns: Json = {};
  if (dkim) {
    dns.dkim_record = dkim.value.replace(/^v=DKIM1;\s*/, "").replace("k=rsa;", "k=rsa; h=sha256;");
    if (dkim.valid !== "valid") dns.dkim_error = `no matching DKIM record at ${dkim.name}`;
  }
  if (spf) { dns.spf_record = spf.value; if (spf.valid !== "valid") dns.spf_error = `no SPF record at ${spf.name}`; }
  if (cname) { dns.cname_record = cname.value; if (cname.valid !== "valid") dns.cname_error = `${cname.name} is not a CNAME to ${cname.value}`; }
  return { ...statusOf(domain), ownership_verified: domain.state === "active", dkim_status: recordStatus(dkim), spf_status: recordStatus(spf),
    cname_status: recordStatus(cname), mx_status: recordStatus(mx), dns };
}

/** tracking_domain of a create or update body: the domain's tracking host (docs/tracking-hosts.md), checked by the service. */
function trackingDomainOf(body: unknown): string | undefined {
  if (!isObject(body) || body.tracking_domain === undefined) return undefined;
  if (typeof body.tracking_domain !== "string") throw badFormat("tracking_domain must be a string");
  return body.tracking_domain;
}

/** PUT body → settings: SparkPost's fields are accepted; tracking flags are postern's. */
function readPatch(body: unknown): DomainSettingsPatch {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  const patch: DomainSettingsPatch = {};
  const flags: [string, keyof DomainSettingsPatch][] = [["open_tracking", "openTracking"], ["click_tracking", "clickTracking"],
    ["unsubscribe_tracking", "unsubscribeTracking"], ["validation", "validation"], ["bot_detection", "botDetection"]];
  for (const [wire, key] of flags) {
    const v = body[wire];
    if (v === undefined) continue;
    if (typeof v !== "boolean") throw badFormat(`${wire} must be a boolean`);
    (patch as Record<string, boolean>)[key] = v;
  }
  return patch;
}

function readCreate(body: unknown): string {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  if (typeof body.domain !== "string" || !body.domain) throw missingField("domain is required");
  if (isObject(body.dkim) && body.dkim.private !== undefined) throw badFormat("dkim: postern generates DKIM keys; custom private keys are not supported");
  return body.domain;
}

export function sendingDomainRoutes(deps: Deps) {
  return (app: Elysia) => app.use(permissions)
    .get("/sending-domains", async ({ request }) => {
      const q = readQuery(request);
      const items = (await scopedDomains(request, deps.domains, undefined, { everyZone: true })).map(listItem);
      return json(200, { results: items.filter((i) => matchesFilters(i, q)) });
    }, { permission: need("domains.read") })
    .post("/sending-domains", async ({ request, body }) => {
      const name = readCreate(body);
      const tracking = trackingDomainOf(body);
      const domain = await deps.domains.add(name, { tenant: principalOf(request).tenant });
      if (tracking !== undefined) await deps.trackingHosts.set(domain.name, tracking).catch(async (e) => { await deps.domains.remove(domain.name); throw e; });
      return json(200, { results: { message: "Successfully Created domain.", domain: domain.name, dkim: await dkimOf(deps, domain) } });
    }, { permission: need("domains.manage", { keys: "account" }) })
    .get("/sending-domains/:domain", async ({ request, params }) => {
      const d = await pathDomain(request, deps.domains, params.domain);
      const { domain: _name, ...rest } = listItem(d);
      return json(200, { results: { ...rest, dkim: await dkimOf(deps, d) } });
    }, { permission: need("domains.read", { prefix: "/:domain" }) })
    .put("/sending-domains/:domain", async ({ request, params, body }) => {
      const d = await pathDomain(request, deps.domains, params.domain);
      const patch = readPatch(body);
      const tracking = trackingDomainOf(body);
      if (tracking !== undefined) await deps.trackingHosts.set(d.name, tracking);
      await deps.domains.set(d.name, patch);
      return json(200, { results: { message: "Successfully Updated domain.", domain: d.name } });
    }, { permission: need("domains.manage", { prefix: "/:domain" }) })
    .delete("/sending-domains/:domain", async ({ request, params }) => {
      await deps.domains.remove((await pathDomain(request, deps.domains, params.domain)).name);
      return new Response(null, { status: 204 });
    }, { permission: need("domains.manage", { keys: "account" }) })
    .post("/sending-domains/:domain/verify", async ({ request, params }) => {
      // Like Omnivery, every record is checked whatever dkim_verify/spf_verify/cname_verify ask for.
      const { domain, records } = await deps.domains.verify((await pathDomain(request, deps.domains, params.domain)).name);
      return json(200, { results: verifyResult(domain, records) });
    }, { permission: need("domains.manage", { keys: "account" }) });
}
