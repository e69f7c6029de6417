// Suppression lists per domain: bounces, unsubscribes, complaints (honoured at send time) and
// whitelists (which exempt an address from the others). Automatic adds come from delivery
// failures, DSNs, complaints and unsubscribe clicks.
import type { SuppressionType } from "./model.ts";
import type { GroupSuppressionType, ReportListType, Store, Suppression } from "./store-port.ts";
import { AppError, invalid, notFound } from "./errors.ts";
import { checkSyntax } from "./address/address.ts";
import type { AuditWriter } from "./audit.ts";
import { domainTenant } from "./tenants.ts";

export const SUPPRESSION_TYPES: SuppressionType[] = ["bounces", "unsubscribes", "complaints", "whitelists"];
/** Lists only delivery outcomes fill (suppression-policy.ts reportListFor): read and cleared, never added to by hand. */
export const REPORT_LIST_TYPES: ReportListType[] = ["blocks", "invalid"];

export interface SuppressionInput {
  address: string;
  reason?: string;
  code?: string;
  scope?: string | null;
  createdAt?: number;
}

export function createSuppressionService(deps: { store: Store; now: () => number; audit?: AuditWriter }) {
  async function domainOf(domain: string) {
    const d = await deps.store.control.getDomain(domain);
    if (!d) throw notFound(`domain ${domain} not found`);
    return d;
  }
  const zoneOf = async (domain: string) => deps.store.zone((await domainOf(domain)).zone);
  const checkType = (type: string): SuppressionType => {
    if (!SUPPRESSION_TYPES.includes(type as SuppressionType)) throw invalid(`type must be one of ${SUPPRESSION_TYPES.join(", ")}`, "type");
    return type as SuppressionType;
  };
  /** Reads and removals also reach the report-only lists and unsubscribe groups' entries (the console shows every row). */
  const checkReadType = (type: string): SuppressionType | ReportListType | GroupSuppressionType =>
    REPORT_LIST_TYPES.includes(type as ReportListType) || /^group:\d+$/.test(type) ? type as ReportListType | GroupSuppressionType : checkType(type);

  return {
    checkType,
    /** Adds or replaces entries; every address is checked first, nothing is written when one is bad. */
    async add(domain: string, type: string, entries: SuppressionInput[]): Promise<number> {
      const t = checkType(type);
      const issues = entries.flatMap((e) => checkSyntax(e.address, { field: "address" }).map((x) => ({ ...x, message: `"${e.address}" ${x.message}` })));
      if (issues.length) throw new AppError("invalid", issues[0]!.message, { issues });
      const d = await domainOf(domain);
      const zone = deps.store.zone(d.zone);
      const rows: Suppression[] = entries.map((e) => ({ domain: domain.toLowerCase(), type: t, address: e.address.trim().toLowerCase(),
        reason: e.reason ?? "", code: e.code ?? "", scope: e.scope ?? null, createdAt: e.createdAt ?? deps.now() }));
      await zone.addSuppressions(rows);
      for (const r of rows) await deps.audit?.record("suppression.add", `${r.domain}/${t}/${r.address}`, domainTenant(d));
      return rows.length;
    },
    async get(domain: string, type: string, address: string): Promise<Suppression | null> {
      return (await zoneOf(domain)).getSuppression(domain.toLowerCase(), checkReadType(type), address);
    },
    /**
     * Lists entries ordered by address, after `after` or before `before` (cursor paging);
     * `descending` reads from the end backwards (nearest `before` first) for previous/last pages.
     */
    async list(domain: string, q: { type?: string; after?: string; before?: string; descending?: boolean; limit: number; address?: string }): Promise<Suppression[]> {
      if (q.type) checkReadType(q.type);
      return (await zoneOf(domain)).listSuppressions({ domain: domain.toLowerCase(), ...q });
    },
    /** Removes `address` from one list (or all when type is null); returns how many entries went. */
    async remove(domain: string, type: string | null, address: string): Promise<number> {
      const d = await domainOf(domain);
      const n = await deps.store.zone(d.zone).deleteSuppression(domain.toLowerCase(), type ? checkReadType(type) : null, address);
      if (n) await deps.audit?.record("suppression.delete", `${domain.toLowerCase()}/${type ?? "*"}/${address.trim().toLowerCase()}`, domainTenant(d));
      return n;
    },
    async clear(domain: string, type: string): Promise<number> {
      const d = await domainOf(domain);
      const n = await deps.store.zone(d.zone).deleteAllSuppressions(domain.toLowerCase(), checkReadType(type));
      await deps.audit?.record("suppression.clear", `${domain.toLowerCase()}/${type}`, domainTenant(d));
      return n;
    },
  };
}

export type SuppressionService = ReturnType<typeof createSuppressionService>;
