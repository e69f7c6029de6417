// Matches a parsed DSN or ARF report back to our message and recipient (VERP first, then the
// returned headers) and turns it into events and status changes (the recorder derives the
// suppressions they imply).
import type { MessageEvent } from "../core/model.ts";
import type { RecipientUpdate, Store, StoredMessage, StoredRecipient, ZoneStore } from "../core/store-port.ts";
import { newId } from "../core/ids.ts";
import { decodeReturnPath } from "./verp.ts";
import { classifyBounce, type BounceClass } from "../core/bounce/index.ts";
import type { BounceRecipient, BounceReport, ComplaintReport } from "./reports.ts";
import { receiverStatus } from "./dsn.ts";

export interface ReportOutcome {
  zone: string;
  updates: RecipientUpdate[];
  events: MessageEvent[];
}

/** `isVerified`: matched through an HMAC-checked VERP address, not only through headers anyone can copy. */
interface Match { zone: ZoneStore; message: StoredMessage; recipients: StoredRecipient[]; isVerified: boolean }

export function createReportHandler(deps: { store: Store; secret: string; now: () => number }) {
  async function byIds(messageId: string, recipientId: string | undefined, isVerified: boolean): Promise<Match | null> {
    for (const name of deps.store.zoneNames()) {
      const zone = deps.store.zone(name);
      const message = await zone.getMessage(messageId);
      if (!message) continue;
      const all = await zone.listRecipients(messageId);
      return { zone, message, recipients: recipientId ? all.filter((r) => r.id === recipientId) : all, isVerified };
    }
    return null;
  }

  /** Finds our message: the VERP address it came to, the returned return path, then X-Postern-Id. */
  async function locate(report: BounceReport | ComplaintReport, rcptTo: string[]): Promise<Match | null> {
    for (const addr of [...rcptTo, report.returnPath ?? "", report.original?.returnPath ?? ""]) {
      const ids = addr ? decodeReturnPath(addr, deps.secret) : null;
      if (ids) return byIds(ids.messageId, ids.recipientId, true);
    }
    // Any recipient of a message has its X-Postern-Id: such a match may record an event, but must
    // not fail or suppress anyone (a forged report could otherwise silence co-recipients).
    const own = report.original?.headers["x-postern-id"];
    return own ? byIds(own.trim(), undefined, false) : null;
  }

  function event(m: Match, r: StoredRecipient, type: MessageEvent["type"], extra: Partial<MessageEvent>): MessageEvent {
    return { id: newId(deps.now()), type, messageId: m.message.id, recipient: r.email.toLowerCase(), recipientId: r.id, domain: m.message.domain,
      timestamp: deps.now(), tags: m.message.tags, metadata: m.message.metadata, ...extra };
  }

  const update = (r: StoredRecipient, status: StoredRecipient["status"], code: number | null, text: string): RecipientUpdate => ({
    id: r.id, status, attempts: r.attempts, nextAttemptAt: r.nextAttemptAt, firstAttemptAt: r.firstAttemptAt, lastCode: code, lastResponse: text, mx: r.mx });

  function bounce(m: Match, report: BounceReport): ReportOutcome {
    const out: ReportOutcome = { zone: m.zone.zone, updates: [], events: [] };
    for (const [r, br] of reportedRecipients(m, report)) {
      const v = verdictFor(br, report.reportingMta);
      // The address the bounced mail went out from (kept with the recipient's last attempt).
      const source = r.sourceIp ? { sendingIp: r.sourceIp, ...(r.ipPool ? { ipPool: r.ipPool } : {}) } : {};
      const common = { code: v.code, enhancedCode: v.enhancedCode, description: v.text, mx: br.remoteMta, bounceClass: v.bounceClass, ...source };
      if (v.kind === "deferred") { out.events.push(event(m, r, "deferred", { severity: "temporary", ...common })); continue; }
      out.events.push(event(m, r, "failed", { severity: "permanent", ...common }));
      out.updates.push(update(r, "failed", v.code, v.text));
    }
    return out;
  }

  /** Each of our recipients a report is about, once, with the report's first failure for it (else its first delay).
   *  A DSN may repeat a recipient, and with one recipient matched every group stands for it: a stranger's report of
   *  thousands of groups must not become thousands of events and webhooks. */
  function reportedRecipients(m: Match, report: BounceReport): Map<StoredRecipient, BounceRecipient> {
    const byEmail = new Map<string, StoredRecipient>();
    for (const x of m.recipients) if (!byEmail.has(x.email.toLowerCase())) byEmail.set(x.email.toLowerCase(), x);
    const chosen = new Map<StoredRecipient, BounceRecipient>();
    for (const br of report.recipients) {
      if (br.action !== "failed" && br.action !== "delayed") continue;
      const r = byEmail.get(br.finalRecipient.toLowerCase()) ?? byEmail.get(br.originalRecipient?.toLowerCase() ?? "")
        ?? (m.recipients.length === 1 ? m.recipients[0] : undefined);
      if (r && (!chosen.has(r) || (br.action === "failed" && chosen.get(r)!.action === "delayed"))) chosen.set(r, br);
    }
    return chosen;
  }

  function complaint(m: Match, report: ComplaintReport): ReportOutcome {
    const out: ReportOutcome = { zone: m.zone.zone, updates: [], events: [] };
    const targets = new Set(report.originalRcptTo.map((a) => a.toLowerCase()));
    const list = m.recipients.filter((r) => targets.size === 0 || targets.has(r.email.toLowerCase()));
    // Without a named recipient only a VERP-verified match may stand in for one.
    for (const r of list.length ? list : m.isVerified ? m.recipients.slice(0, 1) : []) {
      out.events.push(event(m, r, "complained", { description: report.feedbackType }));
    }
    return out;
  }

  return {
    /** The outcome of a report, or null when it matches none of our messages. */
    async handle(report: BounceReport | ComplaintReport, rcptTo: string[]): Promise<ReportOutcome | null> {
      const m = await locate(report, rcptTo);
      if (!m || !m.recipients.length) return null;
      // A match through copyable headers only is not evidence: recording it would still fire
      // permanent_fail / complained webhooks that customers act on.
      if (!m.isVerified) return null;
      return report.kind === "bounce" ? bounce(m, report) : complaint(m, report);
    },
    /** True when `address` is one of our VERP return paths. */
    isReturnPath: (address: string) => decodeReturnPath(address, deps.secret) !== null,
  };
}

export type ReportHandler = ReturnType<typeof createReportHandler>;

/**
 * What one recipient of a bounce report means: the classifier reads the Diagnostic-Code and Status
 * (Exim reports Status 5.0.0 and the specific code only in the diagnostic), repairs the codes and
 * weighs the words. A "delayed" action is a deferral notice (the remote MTA is still trying), and so
 * is a 4.x.x status without an action saying otherwise. A "failed" action is final whatever the
 * status (RFC 3464 §2.3.3: the MTA has given up); with a 4.x.x status it gave up retrying, an expiry.
 * The Reporting-MTA also picks a receiver's table (Exchange Online and Outlook.com write their own NDRs).
 */
export function verdictFor(br: BounceRecipient, reportingMta?: string): { kind: "deferred" | "failed"; code: number; enhancedCode: string; text: string; bounceClass: BounceClass } {
  const diagnostic = br.diagnostic?.text ?? "";
  const gaveUp = br.action === "failed" && br.status.startsWith("4");
  const status = receiverStatus(br);
  const verdict = classifyBounce({ code: br.diagnostic?.code, enhancedCode: br.diagnostic?.enhancedCode ?? status, text: diagnostic,
    expired: gaveUp || /expired|too long|retry time|timed? ?out/i.test(diagnostic), command: br.command ?? "unknown",
    status, recipientDomain: br.finalRecipient.split("@").pop(),
    ...(br.mtaCategory ? { mtaCategory: br.mtaCategory } : {}), ...(br.diagnostic?.type ? { diagnosticType: br.diagnostic.type } : {}),
    ...(br.remoteMta ? { remoteHost: br.remoteMta } : {}), ...(reportingMta ? { reportingHost: reportingMta } : {}) });
  const isTemporary = br.action === "delayed" || (br.action !== "failed" && (br.status.startsWith("4") || Boolean(verdict.enhancedCode?.startsWith("4"))));
  return { kind: isTemporary ? "deferred" : "failed", code: verdict.code ?? (isTemporary ? 450 : 550),
    enhancedCode: verdict.enhancedCode ?? br.status, text: diagnostic || `status ${br.status}`, bounceClass: verdict.bounceClass };
}
