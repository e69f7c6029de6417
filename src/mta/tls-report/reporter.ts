// TLS-RPT as a sender (RFC 8460): once a day, for each policy domain postern sent to, the day's
// session counts go to the addresses its `_smtp._tls` TXT record names: gzip'd JSON by mail
// through postern itself (`submit`), or by HTTPS POST (§5.2, application/tlsrpt+gzip). `sendDay`
// also serves `postern tls-rpt send` (the current UTC day so far). The last day reported is a
// stored cursor, moved by compare-and-set before a day is sent: a restart sends the days missed
// while down once, and a node sharing the cursor that moved it first is the one that sends.
import type { Store } from "../../core/store-port.ts";
import type { Resolver } from "../../dns.ts";
import type { Logger } from "../../log.ts";
import { buildReport, dayOf, gzipReport, mailtoAddress, parseTlsRpt, reportFileName, reportMail } from "./report.ts";
import type { TlsSessionCounter } from "./sessions.ts";

export interface TlsReporterDeps {
  store: Store; resolver: Resolver; now: () => number; log: Logger; counter: TlsSessionCounter;
  /** The submitter (this MTA's host name) and the address reports come from (a configured sending domain's; also the contact-info). */
  submitter: string; from: () => Promise<string>;
  /** Queues a complete message through postern's own sender. */
  submit: (raw: Uint8Array, from: string, to: string) => Promise<void>;
  /** The last day reported (0: never) and its compare-and-set move (false: it was no longer at `from`). */
  lastDay: { get(): Promise<number>; move(from: number, to: number): Promise<boolean> };
}

export interface ReportSent { domain: string; to: string; ok: boolean; error?: string }

const CHECK_MS = 3_600_000;
/** The store keeps session counts for a week (addTlsSessions): older missed days have nothing left to report. */
const KEPT_DAYS = 7;

export function createTlsReporter(deps: TlsReporterDeps) {
  let timer: ReturnType<typeof setInterval> | null = null;

  async function ruaOf(domain: string): Promise<string[]> {
    try {
      const records = await deps.resolver.txt(`_smtp._tls.${domain}`);
      return records.map((r) => parseTlsRpt(r.join(""))).find((u) => u !== null) ?? [];
    } catch { return []; }
  }

  /** By mail to a mailto: rua (the To header names the address it goes to), else by HTTPS POST. */
  async function deliver(uri: string, body: { mail: (to: string) => Uint8Array; gz: Buffer }): Promise<void> {
    if (/^mailto:/i.test(uri)) {
      const to = mailtoAddress(uri);
      if (!to) throw new Error(`${uri} is not a usable mailto: address`);
      return deps.submit(body.mail(to), await deps.from(), to);
    }
    const res = await fetch(uri, { method: "POST", headers: { "content-type": "application/tlsrpt+gzip" }, body: body.gz, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${uri}`);
  }

  /** Sends `day`'s report to every policy domain that asks for one; returns what went where. */
  async function sendDay(day: number): Promise<ReportSent[]> {
    await deps.counter.flush();
    const rows = await deps.store.control.tlsSessions(day);
    const out: ReportSent[] = [];
    let from = "";
    for (const domain of [...new Set(rows.map((r) => r.policyDomain))]) {
      const uris = await ruaOf(domain);
      if (!uris.length) continue;
      from ||= await deps.from().catch(() => `postmaster@${deps.submitter}`);
      const unique = `${day}.${Math.floor(deps.now() / 1000)}`;
      const report = buildReport(domain, day, rows, { organization: deps.submitter, contact: from, reportId: `${unique}.${domain}@${deps.submitter}` });
      const gz = gzipReport(report);
      const file = reportFileName(deps.submitter, domain, day, unique);
      const mail = (to: string) => reportMail({ from, to, domain, submitter: deps.submitter, report, file, gz, date: new Date(deps.now()),
        messageId: `${unique}.${domain}.tlsrpt@${deps.submitter}` });
      for (const uri of uris) {
        try { await deliver(uri, { mail, gz }); out.push({ domain, to: uri, ok: true }); } catch (e) {
          deps.log.warn("TLS-RPT report not sent", { domain, to: uri, error: String(e) });
          out.push({ domain, to: uri, ok: false, error: String(e) });
        }
      }
    }
    return out;
  }

  /**
   * Reports every day after the stored last day up to yesterday, each claimed before it is sent
   * (at most once: a crash mid-send loses that day rather than repeating it). A first start only
   * records yesterday: days before the reporter ever ran are not reported.
   */
  async function catchUp(): Promise<void> {
    const yesterday = dayOf(deps.now()) - 1;
    let at = await deps.lastDay.get();
    if (at === 0) { await deps.lastDay.move(0, yesterday); return; }
    for (let day = Math.max(at + 1, yesterday - KEPT_DAYS + 1); day <= yesterday; day++) {
      if (!(await deps.lastDay.move(at, day))) return; // another process moved it first: it sends
      at = day;
      await sendDay(day);
    }
  }

  let checking: Promise<void> | null = null;
  const check = () => (checking ??= catchUp().catch((e) => deps.log.error("TLS-RPT failed", { error: String(e) })).finally(() => { checking = null; }));

  return {
    sendDay,
    /** Sends the days not yet reported; also run at start and hourly. */
    catchUp: check,
    /** The day that just ended is reported once the clock has passed it (checked at start, then hourly). */
    start() {
      if (timer) return;
      timer = setInterval(check, CHECK_MS);
      (timer as { unref?: () => void }).unref?.();
      void check();
    },
    stop() { if (timer) clearInterval(timer); timer = null; },
  };
}

export type TlsReporter = ReturnType<typeof createTlsReporter>;
