// Turns an inbound message into a BounceReport (DSN, RFC 3464), a ComplaintReport (ARF,
// RFC 5965) or null. Plain-text bounces without a machine-readable part are read best-effort
// and flagged `heuristic`. Never throws; correlating with our messages is the caller's job.
import PostalMime, { type Address, type Attachment, type Email } from "postal-mime";
import { parseFeedbackFields, type FeedbackFields } from "./arf.ts";
import { parseBounceText, withTextEvidence } from "./bounce-text.ts";
import { htmlToText } from "../core/html-text.ts";
import { parseDeliveryStatus, type BounceRecipient, type DeliveryStatus } from "./dsn.ts";
import { parseHeaderBlock, type OriginalMessage } from "./report-fields.ts";

export type { BounceRecipient, DsnAction } from "./dsn.ts";
export type { Diagnostic, OriginalMessage } from "./report-fields.ts";

/** The report message itself: who sent it, to whom (often our VERP address), and its subject. */
export interface ReportMessage {
  from?: string;
  to: string[];
  subject?: string;
  messageId?: string;
}

export interface BounceReport {
  kind: "bounce";
  /** True when read from human-readable text rather than a message/delivery-status part. */
  heuristic: boolean;
  reportingMta?: string;
  arrivalDate?: string;
  originalEnvelopeId?: string;
  recipients: BounceRecipient[];
  /** Headers of the bounced message, when the report returned them. */
  original?: OriginalMessage;
  /**
   * Best available envelope sender of the bounced message, for VERP decoding when the SMTP
   * envelope is not at hand: X-Postfix-Sender, else the returned Return-Path, else the report's
   * To (RFC 5321 §4.5.5: DSNs go to the reverse-path).
   */
  returnPath?: string;
  report: ReportMessage;
}

export interface ComplaintReport extends FeedbackFields {
  kind: "complaint";
  /** Headers of the reported message (RFC 5965 §2 third part), when included. */
  original?: OriginalMessage;
  /** Original-Mail-From, else the returned Return-Path. */
  returnPath?: string;
  report: ReportMessage;
}

const FEEDBACK_TYPES = ["message/feedback-report"];
/** RFC 3464 §2 and its UTF-8 form, RFC 6533 §6. */
const DELIVERY_STATUS_TYPES = ["message/delivery-status", "message/global-delivery-status"];
/** Full returned message first, then headers only (RFC 6522 §4 text/rfc822-headers). */
const ORIGINAL_TYPES = ["message/rfc822", "message/global", "text/rfc822-headers", "message/global-headers"];
const PARSER_OPTIONS = { forceRfc822Attachments: true, attachmentEncoding: "utf8" } as const;
const MAX_REPORT_BYTES = 30 * 1024 * 1024;

export interface ParseOptions {
  /**
   * The message came to a valid VERP return path: the token, not the sender, is the authority, so
   * a text bounce is read whoever sent it (carriers, gateways, forwarders) and whatever its subject.
   */
  trusted?: boolean;
}

/** How deep reports wrapped in forwarded or attached messages (message/rfc822) are looked for. */
const MAX_WRAPPING = 2;

/** Parses a DSN, an ARF complaint or a recognisable plain-text bounce; null for anything else. */
export async function parseReport(raw: Uint8Array | string, opts: ParseOptions = {}, depth = 0): Promise<BounceReport | ComplaintReport | null> {
  try {
    if (raw.length > MAX_REPORT_BYTES) return null;
    const email = await PostalMime.parse(withoutLeadingBlankLines(raw), PARSER_OPTIONS);
    const direct = readComplaint(email) ?? readDeliveryStatus(email) ?? readBareDeliveryStatus(email, raw);
    if (direct) return direct;
    // A text that names no recipient (a forwarder's note) yields to a report wrapped inside.
    const text = readTextBounce(email, raw, opts);
    if (text && text.recipients.some((r) => r.finalRecipient)) return text;
    return (await readWrapped(email, opts, depth)) ?? text;
  } catch {
    // Malformed MIME is an ordinary input here: it is simply not a report.
    return null;
  }
}

/** Blank lines before the first header (a mailbox export's leftovers) would end the header block at once. */
function withoutLeadingBlankLines(raw: Uint8Array | string): Uint8Array | string {
  const head = typeof raw === "string" ? raw.slice(0, 4096) : new TextDecoder().decode(raw.subarray(0, 4096));
  const skip = /^(?:[ \t]*\r?\n)+/.exec(head)?.[0].length ?? 0;
  if (skip === 0) return raw;
  return typeof raw === "string" ? raw.slice(skip) : raw.subarray(new TextEncoder().encode(head.slice(0, skip)).length);
}

/** A report forwarded as an attachment or wrapped by a relay: the first message/rfc822 part that is one. */
async function readWrapped(email: Email, opts: ParseOptions, depth: number): Promise<BounceReport | ComplaintReport | null> {
  if (depth >= MAX_WRAPPING) return null;
  for (const part of email.attachments.filter((a) => a.mimeType === "message/rfc822" || a.mimeType === "message/global")) {
    const inner = await parseReport(partText(part), opts, depth + 1);
    if (inner) return { ...inner, report: { ...inner.report, to: readReportMessage(email).to } };
  }
  return null;
}

/** RFC 5965: every multipart/report with report-type=feedback-report is a complaint, even when its
 *  feedback part is mislabelled or its fields are missing (then feedback type "abuse"). */
function feedbackFieldsOf(email: Email): FeedbackFields | null {
  const part = findPart(email.attachments, FEEDBACK_TYPES);
  const fromPart = part ? parseFeedbackFields(partText(part)) : null;
  if (fromPart) return fromPart;
  const labelled = email.attachments.find((a) => /^(text|message)\//.test(a.mimeType) && /^Feedback-Type:\s*\S/im.test(partText(a)));
  const inBody = /^Feedback-Type:\s*\S/im.test(email.text ?? "") ? (email.text ?? "").slice((email.text ?? "").search(/^Feedback-Type:/im)) : "";
  const fromText = labelled ? parseFeedbackFields(partText(labelled)) : inBody ? parseFeedbackFields(inBody) : null;
  if (fromText) return fromText;
  const contentType = email.headers.find((h) => h.key === "content-type")?.value ?? "";
  const isArf = /multipart\/report/i.test(contentType) && /report-type\s*=\s*"?feedback-report/i.test(contentType);
  return isArf || part ? { feedbackType: "abuse", originalRcptTo: [], authenticationResults: [], reportedDomains: [], reportedUris: [] } : null;
}

function readComplaint(email: Email): ComplaintReport | null {
  const fields = feedbackFieldsOf(email);
  if (!fields) return null;
  const original = readOriginal(email.attachments);
  // Microsoft JMRP redacts Original-Rcpt-To but names the recipient in this returned header.
  const jmrpRecipient = original?.headers["x-hmxmroriginalrecipient"]?.replace(/^<(.*)>$/, "$1");
  if (fields.originalRcptTo.length === 0 && jmrpRecipient) fields.originalRcptTo.push(jmrpRecipient);
  const returnPath = fields.originalMailFrom || original?.returnPath || undefined;
  return {
    kind: "complaint",
    ...fields,
    ...(original ? { original } : {}),
    ...(returnPath ? { returnPath } : {}),
    report: readReportMessage(email),
  };
}

function readDeliveryStatus(email: Email): BounceReport | null {
  // Also a vendor's own label for the same fields (XWall's "message/xdelivery-status"). A report may
  // label more than one part so, one of them prose (InterMail's "This Message was undeliverable due to
  // the following reason: ..." before the fields): the fields come from the first part that reads as
  // fields, and a part that does not is read with the human-readable text.
  // The standard types first, then a vendor's label (a stable sort keeps each group's order).
  const vendorLast = (a: { mimeType: string }) => (DELIVERY_STATUS_TYPES.includes(a.mimeType) ? 0 : 1);
  const parts = email.attachments.filter((a) => DELIVERY_STATUS_TYPES.includes(a.mimeType) || /^message\/[\w.-]*delivery-status$/i.test(a.mimeType))
    .sort((a, b) => vendorLast(a) - vendorLast(b));
  let status: DeliveryStatus | null = null;
  const prose: string[] = [];
  for (const part of parts.slice(0, 4)) {
    const read: DeliveryStatus | null = status ? null : parseDeliveryStatus(partText(part));
    if (read) status = read;
    else if (!status) prose.push(partText(part));
  }
  const text = [email.text ?? htmlToText(email.html ?? ""), ...prose].filter((t) => t.trim()).join("\n\n");
  return status ? bounceOf(email, status, text) : null;
}

/**
 * A DSN whose MIME structure did not survive (boundary lines lost or not matching the header, a
 * multipart/report read as one part): when no part could be read, the delivery-status fields are
 * looked for in the raw body, and the text before them is the human-readable part.
 */
function readBareDeliveryStatus(email: Email, raw: Uint8Array | string): BounceReport | null {
  if (email.attachments.length > 0 || (email.text ?? "").trim()) return null;
  const body = rawBody(raw);
  const at = body.search(/^(Reporting-MTA|Final-Recipient|Original-Recipient):/im);
  const status = at >= 0 ? parseDeliveryStatus(body.slice(at)) : null;
  return status ? bounceOf(email, status, body.slice(0, at)) : null;
}

/** The body of a raw message as text, without MIME boundary lines and part headers. */
export function rawBody(raw: Uint8Array | string): string {
  const text = (typeof raw === "string" ? raw : new TextDecoder().decode(raw)).replace(/\r\n?/g, "\n");
  const start = text.indexOf("\n\n");
  return (start >= 0 ? text.slice(start + 2) : "").replace(/^--[^\s]+\s*$|^Content-(Type|Transfer-Encoding|Disposition|Description):.*$/gim, "");
}

function bounceOf(email: Email, status: DeliveryStatus, text: string): BounceReport {
  status = { ...status, recipients: withTextEvidence(status.recipients, text) };
  const report = readReportMessage(email);
  let original = readOriginal(email.attachments);
  if (!original && status.originalMessageId) {
    original = { messageId: status.originalMessageId, headers: {} };
  }
  const returnPath = status.originalSender || original?.returnPath || report.to[0];
  return {
    kind: "bounce",
    heuristic: false,
    recipients: status.recipients,
    ...(status.reportingMta ? { reportingMta: status.reportingMta } : {}),
    ...(status.arrivalDate ? { arrivalDate: status.arrivalDate } : {}),
    ...(status.originalEnvelopeId ? { originalEnvelopeId: status.originalEnvelopeId } : {}),
    ...(original ? { original } : {}),
    ...(returnPath ? { returnPath } : {}),
    report,
  };
}

function readTextBounce(email: Email, raw: Uint8Array | string, opts: ParseOptions): BounceReport | null {
  const report = readReportMessage(email);
  const fromMailbox = email.from && !email.from.group ? email.from : undefined;
  const failedRecipients = email.headers.find((header) => header.key === "x-failed-recipients")?.value;
  // A message whose MIME structure could not be read (postal-mime found no part) is read as raw text.
  const text = email.text ?? (email.html ? htmlToText(email.html) : email.attachments.length ? "" : rawBody(raw));
  const parsed = parseBounceText({
    text,
    excluded: [...report.to, ...(report.from ? [report.from] : [])],
    ...(fromMailbox ? { fromAddress: fromMailbox.address, fromName: fromMailbox.name } : {}),
    ...(email.subject ? { subject: email.subject } : {}),
    ...(failedRecipients ? { failedRecipients } : {}),
    ...(opts.trusted ? { trusted: true } : {}),
    ...(email.headers.some((h) => h.key === "list-id" || h.key === "list-unsubscribe") ? { isListMail: true } : {}),
  });
  if (!parsed) return null;
  // A returned message attached as message/rfc822 beats headers quoted in the text.
  const original = readOriginal(email.attachments) ?? parsed.original;
  const returnPath = original?.returnPath || report.to[0];
  return {
    kind: "bounce",
    heuristic: true,
    recipients: parsed.recipients,
    ...(original ? { original } : {}),
    ...(returnPath ? { returnPath } : {}),
    report,
  };
}

function findPart(parts: Attachment[], types: string[]): Attachment | undefined {
  return parts.find((part) => types.includes(part.mimeType));
}

function partText(part: Attachment): string {
  return typeof part.content === "string" ? part.content : new TextDecoder().decode(part.content);
}

/** The first returned message or header block that yields any header. */
function readOriginal(parts: Attachment[]): OriginalMessage | undefined {
  for (const type of ORIGINAL_TYPES) {
    const part = findPart(parts, [type]);
    const original = part ? parseHeaderBlock(partText(part)) : undefined;
    if (original) return original;
  }
  return undefined;
}

function readReportMessage(email: Email): ReportMessage {
  const from = email.from && !email.from.group ? email.from.address : undefined;
  const messageId = email.messageId?.trim().replace(/^<(.*)>$/, "$1");
  return {
    to: flattenAddresses(email.to ?? []),
    ...(from ? { from } : {}),
    ...(email.subject ? { subject: email.subject } : {}),
    ...(messageId ? { messageId } : {}),
  };
}

function flattenAddresses(addresses: Address[]): string[] {
  return addresses.flatMap((entry) => (entry.group ? entry.group.map((member) => member.address) : [entry.address]));
}
