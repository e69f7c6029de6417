// The send service every surface, the CLI and SMTP submission use: checks scope, domain state,
// addresses, limits and suppressions, then commits messages + recipients (the queue) + accepted
// events in one transaction before it returns. A returned SendResult means durable on disk.
import type { Address, Domain, MessageEvent, SuppressingList, Principal, SendEnvelope, SendRequest, SendResult } from "./model.ts";
import { mayWrite, PRIMARY_TENANT, type Tenant } from "./tenants.ts";
import { takeMonthlySends } from "./tenant-quota.ts";
import { sendsFor } from "./permissions.ts";
import type { MessageExtra, StoredAttachment, StoredMessage, StoredRecipient, Store, Suppression, ZoneStore } from "./store-port.ts";
import { AppError, forbidden, invalidMany, notFound, type Issue } from "./errors.ts";
import { checkHeaders, customMessageId, hasLineBreak, headerValue, senderAddress, withoutHeader } from "./headers.ts";
import { checkSyntax, emailDomain } from "./address/address.ts";
import { checkRawHeaders } from "./raw-headers.ts";
import { encodeContent, type MessageContent } from "./content.ts";
import { newId } from "./ids.ts";
import { windowStart } from "./limits.ts";
import type { Recorder } from "./recorder.ts";
import { groupListType, groupOfType } from "./unsubscribe-groups.ts";
import type { EgressDirectory } from "./egress/directory.ts";
import { checkTenantEgress } from "./tenant-pool.ts";
import type { AuditWriter } from "./audit.ts";

export interface SendDeps {
  store: Store;
  now: () => number;
  /** mta.hostname: the right-hand side of Message-IDs. */
  hostname: string;
  lifetimeMs: number;
  maxMessageBytes: number;
  /** Writes the send (the only writer of events); its subscribers wake the scheduler. */
  recorder: Recorder;
  /** The configured egress pools and sources: a message naming an unknown one is refused. */
  egress?: EgressDirectory;
  /** The audit log: a send made on behalf of another tenant is recorded (contract §14). */
  audit?: AuditWriter;
}

const SUPPRESSING = new Set(["bounces", "unsubscribes", "complaints"]);

export function createSendService(deps: SendDeps) {
  const { store, now } = deps;

  /** The domain `name` and its tenant (whose status and monthly limit apply to its mail). */
  async function sendingDomain(principal: Principal, name: string): Promise<{ domain: Domain; tenant: Tenant | null }> {
    const domain = await store.control.getDomain(name);
    if (!domain) throw notFound(`domain ${name} not found`);
    if (principal.kind === "domain" && principal.domain?.id !== domain.id) throw forbidden(`this key may not send for ${name}`);
    // Acting for a tenant, a key sends for that tenant's domains only: another tenant's is as unknown as none.
    if (!sendsFor(principal, domain)) throw notFound(`domain ${name} not found`);
    if (domain.state !== "active") throw inactive(domain);
    // A suspended (or terminated) tenant sends nothing, whichever way its mail comes (API, SMTP, CLI).
    const tenant = await store.control.getTenant({ id: domain.tenantId ?? PRIMARY_TENANT });
    if (tenant && !mayWrite(tenant)) throw forbidden(`tenant ${tenant.name} is ${tenant.status}: it cannot send`);
    // A zone served by other nodes has no data here: its mail is accepted by its own nodes (the API
    // proxies there; SMTP submission and the CLI must be pointed there).
    if (!store.zoneNames().includes(domain.zone)) {
      throw new AppError("unavailable", `domain ${name} lives in zone ${domain.zone}, which this node does not serve: send through that zone's nodes`);
    }
    return { domain, tenant };
  }

  async function checkLimit(domain: Domain, count: number) {
    if (!domain.limitMax) return;
    const used = await store.zone(domain.zone).countSends(domain.name, windowStart(domain.limitWindow, now()));
    if (used + count > domain.limitMax) {
      throw new AppError("payment_required", `sending limit of ${domain.limitMax} messages per ${domain.limitWindow} reached for ${domain.name}`);
    }
  }

  return {
    /** Runs every check `send` runs, writing nothing (SendGrid sandbox mode, dry runs). */
    async check(principal: Principal, req: SendRequest): Promise<void> {
      const { domain, tenant } = await sendingDomain(principal, req.domain);
      const issues = checkRequest(req, domain);
      if (issues.length) throw invalidMany(issues);
      if (deps.egress) await checkTenantEgress(req, deps.egress, tenant, (t) => store.control.listDomains(t));
    },
    /** Accepts `req` for delivery; throws AppError for anything the caller got wrong. */
    async send(principal: Principal, req: SendRequest): Promise<SendResult> {
      const { domain, tenant } = await sendingDomain(principal, req.domain);
      const issues = checkRequest(req, domain);
      if (issues.length) throw invalidMany(issues);
      if (deps.egress) await checkTenantEgress(req, deps.egress, tenant, (t) => store.control.listDomains(t));
      const at = now();
      const zone = store.zone(domain.zone);
      const all = req.envelopes.flatMap((e) => [...e.to, ...(e.cc ?? []), ...(e.bcc ?? [])].map((a) => a.email));
      await checkLimit(domain, req.envelopes.length);
      const suppressed = req.skipSuppression ? new Map<string, Suppression>()
        : await suppressedMap(zone, domain.name, all, { isTransactional: Boolean(req.isTransactional), tags: req.tags ?? [], group: req.asmGroupId });
      const built = buildRows(req, domain, suppressed, at, deps);
      checkSizes(built, deps.maxMessageBytes);
      // The tenant's month is counted last, so only a failed accept has to give it back.
      const giveBack = tenant ? await takeMonthlySends(store.control, tenant, built.messages.length, at) : null;
      await deps.recorder.accept(domain.zone, { messages: built.messages, recipients: built.recipients, attachments: built.attachments, events: built.events })
        .catch(async (e: unknown) => { await giveBack?.(); throw e; });
      await recordOnBehalf(principal, built, deps.audit);
      return {
        id: built.messages[0]!.id,
        sendId: built.sendId,
        messages: built.messages.map((m) => ({ id: m.id, messageIdHeader: m.messageIdHeader,
          recipients: built.recipients.filter((r) => r.messageId === m.id).map((r) => r.email) })),
        accepted: built.recipients.filter((r) => r.status === "queued" || r.status === "test").length,
        rejected: built.recipients.filter((r) => r.status === "suppressed").map((r) => ({ email: r.email, reason: suppressed.get(r.email.toLowerCase())?.type ?? "suppressed" })),
      };
    },
  };
}

/**
 * "Who sent as that customer" (contract §14): one audit entry per send made on behalf of another
 * tenant (a vendor header, the console's switcher; core/permissions.ts actFor sets `onBehalf`),
 * decided here so every surface and SMTP submission are covered; a key sending for its own tenant
 * adds nothing to the hot path. The mail is committed by now: a failed audit write must not turn
 * it into an error the client would answer by sending again.
 */
async function recordOnBehalf(principal: Principal, built: { sendId: string; messages: unknown[] }, audit?: AuditWriter) {
  if (!principal.onBehalf || !audit) return;
  const n = built.messages.length;
  await audit.record("mail.send", `${built.sendId} (${n} message${n === 1 ? "" : "s"})`, principal.tenant ?? PRIMARY_TENANT).catch(() => undefined);
}

/**
 * The entries that stop mail of this kind, by lowercased address. A scoped entry (SparkPost's
 * transactional / non_transactional lists) stops only mail of its kind; a null scope stops both.
 */
/**
 * Each message must fit the limit. The request as a whole is limited where its bytes arrive (each
 * surface's body limit): a batch of many small messages is not one large message.
 */
function checkSizes(built: { messages: StoredMessage[] }, max: number) {
  const largest = built.messages.reduce((n, m) => Math.max(n, m.size), 0);
  if (largest > max) throw new AppError("too_large", `message size ${largest} exceeds the limit of ${max} bytes`);
}

/**
 * Mailgun's tag-scoped unsubscribes keep their tags in `code` ("*" or empty: every message); such
 * an entry stops only mail carrying one of those tags.
 */
function isUnsubscribedFrom(code: string, tags: readonly string[]): boolean {
  const scoped = code.split(",").map((t) => t.trim()).filter(Boolean);
  return scoped.length === 0 || scoped.includes("*") || scoped.some((t) => tags.includes(t));
}

/** What a send is, for its suppressions: its kind, its tags and its unsubscribe group. */
interface SendKind { isTransactional: boolean; tags: readonly string[]; group?: number }

async function suppressedMap(zone: ZoneStore, domain: string, emails: string[], send: SendKind): Promise<Map<string, Suppression>> {
  const list = await zone.findSuppressed(domain, emails);
  const whitelisted = new Set(list.filter((s) => s.type === "whitelists").map((s) => s.address));
  const kind = send.isTransactional ? "transactional" : "non_transactional";
  // An unsubscribe group's entries stop only mail sent with that group.
  const isListed = (s: Suppression) => SUPPRESSING.has(s.type) || (send.group !== undefined && s.type === groupListType(send.group));
  const applies = (s: Suppression) => isListed(s) && !whitelisted.has(s.address) && (s.scope === null || s.scope === kind)
    && (s.type !== "unsubscribes" || isUnsubscribedFrom(s.code, send.tags));
  const out = new Map<string, Suppression>();
  for (const s of list) if (applies(s) && !out.has(s.address)) out.set(s.address, s);
  return out;
}

function checkAddress(a: Address, field: string, issues: Issue[]) {
  issues.push(...checkSyntax(a.email, { field: `${field}.email` }));
  if (hasLineBreak(a.name)) issues.push({ field: `${field}.name`, message: "a name must be a single line" });
}

function checkRequest(req: SendRequest, domain: Domain): Issue[] {
  const issues: Issue[] = [];
  checkAddress(req.from, "from", issues);
  if (!issues.length && !fromMatches(req.from.email, domain)) {
    issues.push({ field: "from.email", message: `the from address must belong to ${domain.name}` });
  }
  req.replyTo?.forEach((a, i) => checkAddress(a, `reply_to.${i}`, issues));
  if (req.envelopes.length === 0) issues.push({ field: "to", message: "at least one recipient is required" });
  req.envelopes.forEach((e, i) => checkEnvelope(e, e.path ?? `envelopes.${i}`, domain, issues));
  return issues;
}

function checkEnvelope(e: SendEnvelope, path: string, domain: Domain, issues: Issue[]) {
  const count = e.to.length + (e.cc?.length ?? 0) + (e.bcc?.length ?? 0);
  if (count === 0) issues.push({ field: `${path}.to`, message: "at least one recipient is required" });
  e.to.forEach((a, j) => checkAddress(a, `${path}.to.${j}`, issues));
  e.cc?.forEach((a, j) => checkAddress(a, `${path}.cc.${j}`, issues));
  e.bcc?.forEach((a, j) => checkAddress(a, `${path}.bcc.${j}`, issues));
  e.displayTo?.forEach((a, j) => checkAddress(a, `${path}.display_to.${j}`, issues));
  e.displayCc?.forEach((a, j) => checkAddress(a, `${path}.display_cc.${j}`, issues));
  if (e.from) {
    checkAddress(e.from, `${path}.from`, issues);
    if (!fromMatches(e.from.email, domain)) issues.push({ field: `${path}.from.email`, message: `the from address must belong to ${domain.name}` });
  }
  if (hasLineBreak(e.subject)) issues.push({ field: `${path}.subject`, message: "the subject must be a single line" });
  issues.push(...checkHeaders(e.headers, `${path}.headers`));
  const sender = headerValue(e.headers, "sender");
  const senderEmail = sender === undefined ? null : senderAddress(sender);
  if (senderEmail && !fromMatches(senderEmail, domain)) issues.push({ field: `${path}.headers.Sender`, message: `the Sender address must belong to ${domain.name}` });
  if (!e.raw && !e.text && !e.html && !e.amp) issues.push({ field: `${path}.content`, message: "a text or html body is required" });
  if (e.raw) issues.push(...checkRawHeaders(e.raw, (email) => fromMatches(email, domain), `${path}.from`));
}

const inactive = (domain: Domain) =>
  new AppError("forbidden", `domain ${domain.name} is ${domain.state}: only active domains send`, { field: "from", reason: "sender_identity" });

/**
 * The sender identity check a surface makes before anything else (SendGrid's 403): `email` must
 * belong to `domain` (or a subdomain of a wildcard domain) and the domain must be active.
 */
export function checkSenderIdentity(domain: Domain, email: string): void {
  if (!fromMatches(email, domain)) throw new AppError("forbidden", `the from address must belong to ${domain.name}`, { field: "from", reason: "sender_identity" });
  if (domain.state !== "active") throw inactive(domain);
}

function fromMatches(email: string, domain: Domain): boolean {
  const d = emailDomain(email);
  return d === domain.name || (domain.wildcard && d.endsWith(`.${domain.name}`));
}

function buildRows(req: SendRequest, domain: Domain, suppressed: Map<string, Suppression>, at: number, deps: SendDeps) {
  const sendId = newId(at);
  const attachments: StoredAttachment[] = (req.attachments ?? []).map((a, idx) => ({ sendId, idx, filename: a.filename,
    contentType: a.contentType, contentId: a.contentId ?? null, disposition: a.disposition, data: a.content }));
  const attachmentBytes = attachments.reduce((n, a) => n + a.data.byteLength, 0);
  const messages: StoredMessage[] = [];
  const recipients: StoredRecipient[] = [];
  const events: MessageEvent[] = [];
  const extra = extraOf(req);
  const tracking = {
    opens: req.tracking?.opens ?? domain.openTracking, clicks: req.tracking?.clicks ?? domain.clickTracking, clickText: req.tracking?.clickText ?? false,
    unsubscribe: !req.isTransactional && (req.tracking?.unsubscribe ?? domain.unsubscribeTracking),
    // The hidden honeypot link is part of tracking: mail sent with tracking off is left as written.
    honeypot: domain.botDetection && Boolean((req.tracking?.opens ?? domain.openTracking) || (req.tracking?.clicks ?? domain.clickTracking)),
    ...(req.tracking?.openTag ? { openTag: req.tracking.openTag } : {}),
    ...(req.tracking?.groups?.length ? { groups: req.tracking.groups } : {}),
  };
  for (const e of req.envelopes) {
    // The first message carries the send's own id, so the id a surface answers with (SendGrid's
    // X-Message-Id) names both the send and a message; every event id can start with it.
    const id = messages.length === 0 ? sendId : newId(at);
    const from = e.from ?? req.from;
    const content: MessageContent | null = e.raw ? null : {
      from, replyTo: req.replyTo, to: e.to, cc: e.cc, displayTo: e.displayTo, displayCc: e.displayCc, subject: e.subject, text: e.text,
      html: e.html, amp: e.amp, headers: withoutHeader(e.headers, "message-id"), attachments: attachments.map((a) => a.idx), tracking, date: at,
    };
    const contentText = content ? encodeContent(content) : null;
    const metadata = e.metadata ?? {};
    const tags = e.tags ?? req.tags ?? [];
    messages.push({ id, sendId, domain: domain.name, messageIdHeader: (e.raw && rawMessageId(e.raw)) || customMessageId(e.headers) || `<${id}@${deps.hostname}>`, from: from.email, subject: e.subject,
      content: contentText, raw: e.raw ?? null, tags, metadata, extra, callbackUrl: req.callbackUrl ?? null, source: req.source,
      isTest: Boolean(req.isTestMode), size: (contentText ? Buffer.byteLength(contentText) : e.raw?.byteLength ?? 0) + attachmentBytes, createdAt: at });
    const rcpts: (readonly [Address, StoredRecipient["kind"]])[] = [...e.to.map((a) => [a, "to"] as const), ...(e.cc ?? []).map((a) => [a, "cc"] as const),
      ...(e.bcc ?? []).map((a) => [a, "bcc"] as const)];
    const seen = new Set<string>();
    for (const [a, kind] of rcpts) {
      const email = a.email.trim();
      // One envelope delivers once per mailbox, however often (and in whichever case) it is named.
      if (seen.has(email.toLowerCase())) continue;
      seen.add(email.toLowerCase());
      const sup = suppressed.get(email.toLowerCase());
      const status = sup ? "suppressed" : req.isTestMode ? "test" : "queued";
      const rid = newId(at);
      recipients.push({ id: rid, messageId: id, email, rcptDomain: emailDomain(email), kind, status, attempts: 0,
        nextAttemptAt: e.sendAt && e.sendAt > at ? e.sendAt : at, firstAttemptAt: null, expiresAt: Math.max(e.sendAt ?? at, at) + deps.lifetimeMs,
        lastCode: null, lastResponse: sup ? `suppressed: ${sup.type}` : null, mx: null, updatedAt: at });
      events.push(...acceptEvents({ messageId: id, recipient: email.toLowerCase(), domain: domain.name, timestamp: at, tags, metadata, recipientId: rid }, sup, status));
    }
  }
  return { sendId, messages, recipients, attachments, events };
}

type EventBase = Omit<MessageEvent, "id" | "type">;

/**
 * The events a recipient gets at accept time: a "suppressed" failure for one on a list, else
 * accepted; a test-mode one is also "delivered" (testMode) at once, 1 ms later so it sorts after.
 */
function acceptEvents(base: EventBase, sup: Suppression | undefined, status: StoredRecipient["status"]): MessageEvent[] {
  const at = base.timestamp;
  if (sup) {
    const list = groupOfType(sup.type) === null ? sup.type as SuppressingList : "unsubscribes";
    return [{ ...base, id: newId(at), type: "failed", severity: "permanent", reason: "suppressed", suppressedBy: list }];
  }
  const accepted: MessageEvent = { ...base, id: newId(at), type: "accepted" };
  if (status !== "test") return [accepted];
  return [accepted, { ...base, id: newId(at + 1), timestamp: at + 1, type: "delivered", testMode: true, description: "test mode: accepted, not sent" }];
}

/** The request-level facts the send keeps (only the ones given). */
function extraOf(req: SendRequest): MessageExtra {
  const { campaignId, batchId, asmGroupId, ipPool, sendingIp, description, templateId } = req;
  const all: MessageExtra = { campaignId, batchId, asmGroupId, ipPool, sendingIp, description, templateId };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined && v !== "")) as MessageExtra;
}

/** The Message-ID a raw message already carries (its header block only), so API answers match the mail. */
function rawMessageId(raw: Uint8Array): string | null {
  const text = Buffer.from(raw.subarray(0, 64 * 1024)).toString("latin1");
  const end = text.search(/\r?\n\r?\n/);
  const m = /^message-id:[ \t]*(<[^<>\s]+>)/im.exec(end >= 0 ? text.slice(0, end) : text);
  return m ? m[1]! : null;
}

export type SendService = ReturnType<typeof createSendService>;
