// Reads the body of a message/delivery-status part (RFC 3464 §2; RFC 6533 global form) into
// per-message fields and one BounceRecipient per recipient group. Picking the part and the
// returned headers is reports.ts's job.
import {
  cleanAddress,
  cleanHost,
  ENHANCED_CODE_RE,
  fieldValue,
  normalizeEnhancedCode,
  parseDiagnostic,
  parseFieldGroups,
  type Diagnostic,
  type Field,
} from "./report-fields.ts";

/** RFC 3464 §2.3.3 action values. */
export type DsnAction = "failed" | "delayed" | "delivered" | "relayed" | "expanded";

export interface BounceRecipient {
  /** Final-Recipient address (RFC 3464 §2.3.2), type and angle brackets removed. */
  finalRecipient: string;
  /** Original-Recipient (RFC 3464 §2.3.1): the ORCPT we sent, when the MTA kept it. */
  originalRecipient?: string;
  action: DsnAction;
  /** RFC 3463 status as reported (RFC 3464 §2.3.4), e.g. "5.1.1"; derived when missing. */
  status: string;
  /** Diagnostic-Code (RFC 3464 §2.3.6); often more specific than `status` (Exim sends 5.0.0). */
  diagnostic?: Diagnostic;
  /** Remote-MTA host name (RFC 3464 §2.3.5). */
  remoteMta?: string;
  lastAttemptDate?: string;
  willRetryUntil?: string;
  /** The SMTP command the remote server refused ("RCPT", "DATA"...), from the report's text. */
  command?: string;
  /** The reporting MTA's own verdict on the failure (PowerMTA's X-PowerMTA-BounceCategory: "bad-mailbox"). */
  mtaCategory?: string;
}

export interface DeliveryStatus {
  reportingMta?: string;
  arrivalDate?: string;
  /** Original-Envelope-Id (RFC 3464 §2.2.1): the ENVID we sent, if the MTA supports DSN. */
  originalEnvelopeId?: string;
  /** X-Postfix-Sender: the envelope sender of the bounced message. */
  originalSender?: string;
  /** X-Original-Message-ID (Gmail) without angle brackets. */
  originalMessageId?: string;
  recipients: BounceRecipient[];
}

const ACTIONS: readonly DsnAction[] = ["failed", "delayed", "delivered", "relayed", "expanded"];
const RECIPIENT_FIELDS = ["final-recipient", "original-recipient", "x-actual-recipient"];

/** Parses a delivery-status body; null when it names no recipient at all. */
export function parseDeliveryStatus(body: string): DeliveryStatus | null {
  const groups = parseFieldGroups(body);
  // RFC 3464 §2.1: one per-message group, then one group per recipient. Some MTAs omit the
  // first group or merge everything into one, so groups are told apart by their fields.
  const isRecipientGroup = (group: Field[]) => group.some((field) => RECIPIENT_FIELDS.includes(field.name));
  const messageFields = groups.filter((group) => !isRecipientGroup(group)).flat();
  const recipients = groups.filter(isRecipientGroup).flatMap((group) => {
    const recipient = readRecipient(group);
    return recipient ? [recipient] : [];
  });
  if (recipients.length === 0) return null;
  const firstGroup = groups[0] ?? [];
  const perMessage = messageFields.length > 0 ? messageFields : firstGroup;
  const reportingMta = fieldValue(perMessage, "reporting-mta");
  const arrivalDate = fieldValue(perMessage, "arrival-date");
  const originalEnvelopeId = fieldValue(perMessage, "original-envelope-id");
  const originalSender = fieldValue(perMessage, "x-postfix-sender");
  const originalMessageId = fieldValue(perMessage, "x-original-message-id");
  return {
    recipients,
    ...(reportingMta ? { reportingMta: cleanHost(reportingMta) } : {}),
    ...(arrivalDate ? { arrivalDate } : {}),
    ...(originalEnvelopeId ? { originalEnvelopeId } : {}),
    ...(originalSender ? { originalSender: cleanAddress(originalSender) } : {}),
    ...(originalMessageId ? { originalMessageId: cleanAddress(originalMessageId) } : {}),
  };
}

/** Oracle / Sun Messaging Server's X-Supplementary-Info ("<host #5.0.0 smtp; 550 5.4.1 ...>"), where a report gives
 *  the remote reply there and no Diagnostic-Code: read as the Diagnostic-Code "smtp; 550 5.4.1 ..." it holds. */
function supplementaryReply(value: string | undefined): string | undefined {
  const start = value ? /\bsmtp\s*;\s*/i.exec(value) : null;
  // Its closing ">" and the spaces after it cut without a pattern: one ending in \s*$ is tried from each space of a run.
  const rest = value && start ? value.slice(start.index + start[0].length).trimEnd() : "";
  const reply = rest.endsWith(">") ? rest.slice(0, -1) : rest;
  return reply ? `smtp; ${reply}` : undefined;
}

function readRecipient(group: Field[]): BounceRecipient | null {
  const original = fieldValue(group, "original-recipient");
  const final = fieldValue(group, "final-recipient") ?? fieldValue(group, "x-actual-recipient") ?? original;
  const finalRecipient = final ? cleanAddress(final) : "";
  if (!finalRecipient) return null;
  const diagnosticValue = fieldValue(group, "diagnostic-code") ?? supplementaryReply(fieldValue(group, "x-supplementary-info"));
  const diagnostic = diagnosticValue ? parseDiagnostic(diagnosticValue) : undefined;
  const { action, status } = readActionAndStatus(group, diagnostic);
  const remoteMta = fieldValue(group, "remote-mta");
  const lastAttemptDate = fieldValue(group, "last-attempt-date");
  const willRetryUntil = fieldValue(group, "will-retry-until");
  const mtaCategory = fieldValue(group, "x-powermta-bouncecategory")?.trim().toLowerCase();
  return {
    finalRecipient,
    action,
    status,
    ...(original ? { originalRecipient: cleanAddress(original) } : {}),
    ...(diagnostic ? { diagnostic } : {}),
    ...(remoteMta ? { remoteMta: cleanHost(remoteMta) } : {}),
    ...(lastAttemptDate ? { lastAttemptDate } : {}),
    ...(willRetryUntil ? { willRetryUntil } : {}),
    ...(mtaCategory ? { mtaCategory } : {}),
  };
}

/** Sendmail's Status for a refusal: a fixed one per reply code, whatever enhanced code the reply had, the first for a
 *  refusal at RCPT TO (with its own words "<r>... User unknown" for every 550), the second after DATA or at MAIL FROM
 *  (seen in the DSNs Sendmail 8.17 wrote for the receivers' published replies, test/fixtures/bounces/mta/sendmail/,
 *  sendmail-data/ and STAGE=mail: "550 Administrative prohibition" became 5.1.1 at RCPT, 5.2.0 after DATA). */
const SENDMAIL_STATUS_OF_CODE: Record<number, string[]> = { 500: ["5.5.2"], 501: ["5.5.4", "5.5.2"], 502: ["5.5.1"],
  503: ["5.5.1"], 504: ["5.5.4"], 550: ["5.1.1", "5.2.0"], 551: ["5.1.6"], 552: ["5.2.2", "5.3.4"], 553: ["5.1.3", "5.1.0"] };

/**
 * The Status as the receiver gave it: when the reply in the Diagnostic-Code has a code and the Status is only the
 * reporting MTA's fixed choice for that code (the reply stating no such status itself), the Status says no more than
 * the code, so the reply's words decide. Any other Status is kept as reported.
 */
export function receiverStatus(recipient: BounceRecipient): string {
  const reply = recipient.diagnostic;
  if (reply?.type !== "smtp" || !reply.code) return recipient.status;
  // nullmailer takes the first "d.d.d" anywhere in the reply as its Status (its send.cc), so an address quoted in a
  // reply with no status of its own gives one: 45.1.1.3 made 5.1.1, 104.4.5.6 made 4.4.5.
  if (!reply.enhancedCode && onlyInsideDottedNumbers(reply.text, recipient.status)) return `${String(reply.code)[0]}.0.0`;
  if (!SENDMAIL_STATUS_OF_CODE[reply.code]?.includes(recipient.status)) return recipient.status;
  return reply.enhancedCode === recipient.status ? recipient.status : `${recipient.status[0]}.0.0`;
}

/** Whether a status's digits stand in a text only as part of longer dotted numbers (an IP address, a version). */
function onlyInsideDottedNumbers(text: string, status: string): boolean {
  const escaped = status.replace(/\./g, "\\.");
  return new RegExp(escaped).test(text) && !new RegExp(`(?<![\\d.])${escaped}(?![\\d.]*\\d)`).test(text);
}

/** Action and Status are both required (RFC 3464 §2.3.3-4); each is derived from the other if absent. */
function readActionAndStatus(group: Field[], diagnostic: Diagnostic | undefined): { action: DsnAction; status: string } {
  const actionWord = (fieldValue(group, "action") ?? "").toLowerCase().split(/[\s(;]/)[0] ?? "";
  const statusMatch = ENHANCED_CODE_RE.exec(fieldValue(group, "status") ?? "");
  const declared = ACTIONS.find((action) => action === actionWord);
  const fallbackClass = diagnostic?.enhancedCode?.[0] ?? (diagnostic?.code ? String(diagnostic.code)[0] : undefined);
  const status = statusMatch
    ? normalizeEnhancedCode(statusMatch[0])
    : `${fallbackClass ?? classOfAction(declared)}.0.0`;
  return { action: declared ?? actionOfClass(status[0]), status };
}

function classOfAction(action: DsnAction | undefined): string {
  if (action === "delayed") return "4";
  if (action === "failed" || action === undefined) return "5";
  return "2";
}

function actionOfClass(statusClass: string | undefined): DsnAction {
  if (statusClass === "2") return "delivered";
  return statusClass === "4" ? "delayed" : "failed";
}
