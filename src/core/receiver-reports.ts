// Receivers' reports about our domains' mail (DMARC aggregate, TLS-RPT): kept in the domain's zone,
// once per reporter and report id, and read back per domain and period. The summary the console
// shows (who sends as the domain, with what pass rate) is computed here from the stored rows.
import type { Domain } from "./model.ts";
import type { Store } from "./store-port.ts";
import type { DmarcReport, ReceiverReport, ReceiverReportKind, StoredReceiverReport, TlsReport } from "./receiver-report.ts";

export type IngestResult = "stored" | "duplicate" | "unknown-domain";

/** Reports one listing returns at most (a domain gets a few a day from each large receiver). */
const MAX_LISTED = 1_000;

export function createReceiverReportService(deps: { store: Store; now: () => number; getDomain: (name: string) => Promise<Domain | null>;
  localZones: string[]; ownAddresses: () => ReadonlySet<string> }) {
  /** Our domain a report is about: the name itself, or the nearest parent we send for (a subdomain's policy). */
  async function ownerOf(name: string): Promise<Domain | null> {
    const labels = name.toLowerCase().split(".");
    for (let i = 0; i < labels.length - 1; i++) {
      const d = await deps.getDomain(labels.slice(i).join("."));
      if (d) return d;
    }
    return null;
  }
  return {
    async ingest(report: ReceiverReport): Promise<IngestResult> {
      const domain = await ownerOf(report.domain);
      if (!domain || !deps.localZones.includes(domain.zone)) return "unknown-domain";
      const stored = await deps.store.zone(domain.zone).putReceiverReport({ ...report, domain: domain.name, receivedAt: deps.now() });
      return stored ? "stored" : "duplicate";
    },
    async list(domain: Domain, kind: ReceiverReportKind, from: number, to: number): Promise<StoredReceiverReport[]> {
      return deps.store.zone(domain.zone).listReceiverReports({ domain: domain.name, kind, from, to, limit: MAX_LISTED });
    },
    /** What the Reports page and the CLI show: sources sending as the domain, pass rate per day, TLS failures. */
    async summary(domain: Domain, from: number, to: number) {
      const dmarc = (await this.list(domain, "dmarc", from, to)) as DmarcReport[];
      const tls = (await this.list(domain, "tls", from, to)) as TlsReport[];
      const sessions = tls.flatMap((r) => r.policies).reduce((a, p) => ({ successful: a.successful + p.successful, failed: a.failed + p.failed }),
        { successful: 0, failed: 0 });
      return { dmarcReports: dmarc.length, sources: dmarcSources(dmarc, deps.ownAddresses()), passByDay: passByDay(dmarc),
        tlsReports: tls.length, sessions, tlsFailures: tlsFailures(tls) };
    },
  };
}

export type ReceiverReportService = ReturnType<typeof createReceiverReportService>;

export interface DmarcSource { sourceIp: string; messages: number; passed: number; passRate: number; own: boolean; reporters: string[] }

/**
 * Who sends as the domain: per source IP, the messages receivers saw and the share that passed
 * DMARC (aligned DKIM or aligned SPF, RFC 7489 §6.6.2), most messages first.
 */
export function dmarcSources(reports: DmarcReport[], ownAddresses: ReadonlySet<string>): DmarcSource[] {
  const by = new Map<string, { messages: number; passed: number; reporters: Set<string> }>();
  for (const r of reports) {
    for (const row of r.rows) {
      const s = by.get(row.sourceIp) ?? by.set(row.sourceIp, { messages: 0, passed: 0, reporters: new Set() }).get(row.sourceIp)!;
      s.messages += row.count;
      if (row.dkimAligned === "pass" || row.spfAligned === "pass") s.passed += row.count;
      s.reporters.add(r.orgName);
    }
  }
  return [...by].map(([sourceIp, s]) => ({ sourceIp, messages: s.messages, passed: s.passed,
    passRate: s.messages ? s.passed / s.messages : 0, own: ownAddresses.has(sourceIp), reporters: [...s.reporters].sort() }))
    .sort((a, b) => b.messages - a.messages || a.sourceIp.localeCompare(b.sourceIp));
}

/** Messages and DMARC passes per UTC day of the reports' periods (the pass-rate chart). */
export function passByDay(reports: DmarcReport[]): { day: string; messages: number; passed: number }[] {
  const by = new Map<string, { messages: number; passed: number }>();
  for (const r of reports) {
    const day = new Date(r.begin).toISOString().slice(0, 10);
    const d = by.get(day) ?? by.set(day, { messages: 0, passed: 0 }).get(day)!;
    for (const row of r.rows) {
      d.messages += row.count;
      if (row.dkimAligned === "pass" || row.spfAligned === "pass") d.passed += row.count;
    }
  }
  return [...by].sort(([a], [b]) => a.localeCompare(b)).map(([day, d]) => ({ day, ...d }));
}

export interface TlsFailureSummary { receivingMx: string; resultType: string; sessions: number }

/** TLS failures by receiving MX and result type, most sessions first. */
export function tlsFailures(reports: TlsReport[]): TlsFailureSummary[] {
  const by = new Map<string, TlsFailureSummary>();
  for (const r of reports) for (const p of r.policies) for (const f of p.failures) {
    const mx = f.receivingMx || f.receivingIp || p.policyDomain;
    const key = `${mx}\n${f.resultType}`;
    const s = by.get(key) ?? by.set(key, { receivingMx: mx, resultType: f.resultType, sessions: 0 }).get(key)!;
    s.sessions += f.count;
  }
  return [...by.values()].sort((a, b) => b.sessions - a.sessions);
}

const DAY_MS = 86_400_000;
/** The default period of a listing: the last 30 days. */
export const DEFAULT_REPORT_DAYS = 30;

/** A period bound as the API and CLI take it: Unix seconds or an ISO 8601 date/time; null when unreadable. */
export function parseReportTime(text: string): number | null {
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000;
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return null;
  const t = Date.parse(text);
  return Number.isFinite(t) ? t : null;
}

/** [from, to) from optional texts: to defaults to now, from to 30 days before `to`; throws a message when unreadable. */
export function reportPeriod(from: string | undefined, to: string | undefined, now: number): { from: number; to: number } {
  const end = to ? parseReportTime(to) : now + 1;
  if (end === null) throw new Error(`"to" must be Unix seconds or an ISO 8601 date, not ${JSON.stringify(to)}`);
  const start = from ? parseReportTime(from) : end - DEFAULT_REPORT_DAYS * DAY_MS;
  if (start === null) throw new Error(`"from" must be Unix seconds or an ISO 8601 date, not ${JSON.stringify(from)}`);
  if (start > end) throw new Error(`"from" is after "to"`);
  return { from: start, to: end };
}
