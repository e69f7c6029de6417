// Domain lifecycle and settings: add (with DKIM keys), verify through DNS (or --force), enable
// features, limits, disable and delete. Only `active` domains send.
import type { Domain, DomainSettings } from "./model.ts";
import type { ControlStore } from "./store-port.ts";
import type { Resolver } from "../dns.ts";
import { AppError, conflict, invalid, notFound } from "./errors.ts";
import { generateDkimKeys } from "./dkim-keys.ts";
import { checkRecords, recordsFor, type DnsContext, type DnsRecord } from "./domain-dns.ts";
import { parseLimit } from "./values/duration.ts";
import type { AuditWriter } from "./audit.ts";
import { domainTenant } from "./tenants.ts";

export const DOMAIN_NAME = /^(?=.{1,253}$)(?!-)([a-z0-9-]{1,63}(?<!-)\.)+[a-z]{2,63}$/;
const DEFAULT_SELECTOR = "s1";

export interface DomainDeps {
  control: ControlStore;
  resolver: Resolver;
  now: () => number;
  /**
   * Every zone of the installation, and those other nodes serve. A domain of a zone served
   * elsewhere is added here only when control data is shared (`sharedControl`): its nodes then see it.
   */
  zones: { names: string[]; default: string; remote?: Readonly<Record<string, { url: string; public_url?: string }>>; sharedControl?: boolean };
  /** The configured egress pools ([mta.pools]): a domain's pool must be one. */
  hasPool?: (name: string) => boolean;
  dns: DnsContext;
  /** Every change to a domain (added, verified, its settings, disabled, removed) is recorded. */
  audit?: AuditWriter;
}

export interface DomainSettingsPatch {
  validation?: boolean;
  botDetection?: boolean;
  openTracking?: boolean;
  clickTracking?: boolean;
  unsubscribeTracking?: boolean;
  inbound?: boolean;
  /** "N/M": N messages per M (hour, day, month or a duration); "0/month" removes the limit. */
  limit?: string;
  wildcard?: boolean;
  /** Only the zone the domain has: a domain's data stays in its zone, so it never moves (movingRefused). */
  zone?: string;
  /** The egress pool of its mail ("" : the default pool); must be a configured pool. */
  pool?: string;
}

const DEFAULT_SETTINGS: DomainSettings = {
  validation: true, botDetection: true, openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false,
  limitMax: 0, limitWindow: "month",
};

export function createDomainService(deps: DomainDeps) {
  const { control, now } = deps;

  async function require(name: string): Promise<Domain> {
    const d = await control.getDomain(name);
    if (!d) throw notFound(`domain ${name} not found`);
    return d;
  }

  /** A domain of a zone served elsewhere has its tracking CNAME on that zone's public_url. */
  function dnsFor(d: Domain): DnsContext {
    const remote = deps.zones.remote?.[d.zone];
    return remote ? { ...deps.dns, trackingHost: new URL(remote.public_url ?? remote.url).hostname } : deps.dns;
  }

  return {
    require,
    get: (name: string) => control.getDomain(name),

    /** The domain an address sends for: its own, or the nearest parent added with --wildcard. */
    async forSender(email: string): Promise<Domain | null> {
      const labels = email.slice(email.lastIndexOf("@") + 1).toLowerCase().split(".");
      for (let i = 0; i < labels.length - 1; i++) {
        const d = await control.getDomain(labels.slice(i).join("."));
        if (d && (i === 0 || d.wildcard)) return d;
      }
      return null;
    },
    /** `tenant`: only that tenant's (core/permissions.ts readTenant); undefined: every tenant's. */
    list: (tenant?: number) => control.listDomains(tenant),
    /** The domains whose zone is served here: account-wide reads of zone data (suppressions, sends) go over these. */
    async listServed(tenant?: number): Promise<Domain[]> {
      return (await control.listDomains(tenant)).filter((d) => !deps.zones.remote?.[d.zone]);
    },

    /** `tenant`: the owning tenant (default 0, the primary), which must exist. */
    async add(name: string, opts: { zone?: string; wildcard?: boolean; tenant?: number } & DomainSettingsPatch = {}): Promise<Domain> {
      const lower = name.trim().toLowerCase().replace(/\.$/, "");
      if (!DOMAIN_NAME.test(lower)) throw invalid(`"${name}" is not a valid domain name`, "name");
      const zone = opts.zone ?? deps.zones.default;
      const remote = deps.zones.remote?.[zone];
      if (remote && !deps.zones.sharedControl) throw invalid(`zone "${zone}" is served by ${remote.url}: add the domain on that node`, "zone");
      if (!deps.zones.names.includes(zone)) throw invalid(`unknown zone "${zone}" (configured: ${deps.zones.names.join(", ")})`, "zone");
      const existing = await control.getDomain(lower);
      if (existing && opts.zone && existing.zone !== zone) throw movingRefused(existing, zone);
      if (existing) throw conflict(`domain ${lower} already exists`);
      const tenant = opts.tenant ?? 0;
      if (tenant && !(await control.getTenant({ id: tenant }))) throw notFound(`tenant ${tenant} not found`);
      const keys = await generateDkimKeys(DEFAULT_SELECTOR);
      const settings = applyPatch(DEFAULT_SETTINGS, opts);
      const added = await control.insertDomain({ ...settings, name: lower, zone, wildcard: opts.wildcard ?? false, dkimSelector: DEFAULT_SELECTOR, keys,
        ...(tenant ? { tenantId: tenant } : {}) }, now());
      await deps.audit?.record("domain.add", lower, tenant);
      return added;
    },

    async records(name: string): Promise<DnsRecord[]> {
      const d = await require(name);
      return recordsFor(d, await control.getDkimKeys(d.id), dnsFor(d));
    },

    /** Looks every record up without changing the domain's state (for read-only API calls). */
    async check(name: string): Promise<DnsRecord[]> {
      const d = await require(name);
      return checkRecords(recordsFor(d, await control.getDkimKeys(d.id), dnsFor(d)), deps.resolver);
    },

    /** Checks the records; the domain becomes active when every required one is valid, or at once with force. */
    async verify(name: string, force = false): Promise<{ domain: Domain; records: DnsRecord[] }> {
      const d = await require(name);
      const records = await checkRecords(recordsFor(d, await control.getDkimKeys(d.id), dnsFor(d)), deps.resolver);
      const ok = records.every((r) => !r.required || r.valid === "valid");
      if (d.state === "disabled" && !force) return { domain: d, records };
      // Verifying never takes an active domain out of service (apps call verify at start-up; a
      // domain activated with --force has no DNS to find): it only activates.
      if (d.state === "active") return { domain: d, records };
      const state = ok || force ? "active" : "unverified";
      const domain = state === d.state ? d : (await control.updateDomain(d.name, { state }, now()))!;
      if (state !== d.state) await deps.audit?.record("domain.verify", d.name, domainTenant(d));
      return { domain, records };
    },

    /** The account's domain a host name belongs to: itself or its nearest parent. */
    async owning(hostname: string): Promise<Domain | null> {
      const labels = hostname.toLowerCase().replace(/\.$/, "").split(".");
      for (let i = 0; i < labels.length - 1; i++) {
        const d = await control.getDomain(labels.slice(i).join("."));
        if (d) return d;
      }
      return null;
    },

    async set(name: string, patch: DomainSettingsPatch): Promise<Domain> {
      const d = await require(name);
      if (patch.zone !== undefined && patch.zone.trim().toLowerCase() !== d.zone) throw movingRefused(d, patch.zone);
      if (patch.pool && deps.hasPool && !deps.hasPool(patch.pool)) throw new AppError("invalid", `unknown ip pool "${patch.pool}": not an [mta.pools] pool`, { field: "pool", reason: "unknown_pool" });
      const settings = applyPatch(d, patch);
      const changed = (await control.updateDomain(d.name, { ...settings, wildcard: patch.wildcard ?? d.wildcard }, now()))!;
      await deps.audit?.record("domain.settings", d.name, domainTenant(d));
      return changed;
    },

    async disable(name: string): Promise<Domain> {
      const d = await require(name);
      const changed = (await control.updateDomain(d.name, { state: "disabled" }, now()))!;
      await deps.audit?.record("domain.disable", d.name, domainTenant(d));
      return changed;
    },

    async remove(name: string): Promise<void> {
      const d = await control.getDomain(name.trim().toLowerCase());
      if (!(await control.deleteDomain(name))) throw notFound(`domain ${name} not found`);
      await deps.audit?.record("domain.remove", name.trim().toLowerCase(), d ? domainTenant(d) : undefined);
    },
  };
}

/** A domain's messages, events and suppressions live in its zone's data; moving them is not built. */
function movingRefused(d: Domain, zone: string): AppError {
  return conflict(`domain ${d.name} lives in zone ${d.zone}; moving a domain to another zone (${zone}) is not supported, ` +
    `its data stays in ${d.zone}: delete it and add it again with --zone ${zone} to start over there`);
}

function applyPatch(base: DomainSettings, patch: DomainSettingsPatch): DomainSettings {
  const out: DomainSettings = {
    validation: patch.validation ?? base.validation, botDetection: patch.botDetection ?? base.botDetection,
    openTracking: patch.openTracking ?? base.openTracking, clickTracking: patch.clickTracking ?? base.clickTracking,
    unsubscribeTracking: patch.unsubscribeTracking ?? base.unsubscribeTracking, inbound: patch.inbound ?? base.inbound, limitMax: base.limitMax, limitWindow: base.limitWindow,
    ...(patch.pool !== undefined || base.pool !== undefined ? { pool: patch.pool ?? base.pool } : {}),
  };
  if (patch.limit !== undefined) {
    const limit = parseLimit(patch.limit);
    if (!limit) throw new AppError("invalid", `limit must look like N/hour, N/day, N/month or N/<duration>, got "${patch.limit}"`, { field: "limit" });
    out.limitMax = limit.max;
    out.limitWindow = limit.window;
  }
  return out;
}

export type DomainService = ReturnType<typeof createDomainService>;
