// Turns one SMTP delivery attempt (a reply, or a nodemailer error without one) into a
// DeliveryOutcome, and computes when to try again. Pure: no I/O, no clock; mta/queue.ts and
// mta/delivery.ts apply the result.

export type DeliveryKind = "delivered" | "deferred" | "failed";

/** The verdict on one attempt for one recipient. Outcomes are values, never exceptions. */
export interface DeliveryOutcome {
  kind: DeliveryKind;
  /** True only for `failed`: sending the same message again would get the same answer. */
  permanent: boolean;
  /** The SMTP reply code, when the remote server answered. */
  code?: number;
  /** RFC 3463 `class.subject.detail`, from the reply text or assigned for local errors. */
  enhancedCode?: string;
  /** The reply text on one line (multi-line replies joined), or the local error. */
  message: string;
  /** For a refusal: the command it answered, as nodemailer names it ("MAIL FROM", "RCPT TO", "DATA"). */
  command?: string;
}

/** What a delivery attempt produced; the fields of a nodemailer error or SMTP reply. */
export interface ReplyInput {
  responseCode?: number;
  /** Full reply text as nodemailer gives it: lines joined with "\n", each with its code. */
  response?: string;
  /** nodemailer `err.code`: ECONNECTION, ETIMEDOUT, EDNS, ESOCKET, ETLS, EENVELOPE, ... */
  errorCode?: string;
  /** nodemailer `err.command`: CONN, EHLO, STARTTLS, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, API. */
  command?: string;
  /** nodemailer `err.message`, used for the outcome text when there is no reply. */
  errorMessage?: string;
}

/** RFC 3463 §2: class "." subject "." detail, class 2/4/5, each sub-code 1-3 digits. */
const ENHANCED_CODE_RE = /^([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])/;
/** RFC 5321 §4.2: three digits, then SP or "-" (continuation); "550;" is seen in the wild. */
const REPLY_LINE_RE = /^([2-5]\d\d)(?:[ \-;]+|$)/;
/** Commands whose rejection concerns the session or host, not this message or recipient. */
const SESSION_COMMAND_RE = /^(CONN|EHLO|HELO|LHLO|STARTTLS|AUTH\b)/i;
const MAX_MESSAGE_CHARS = 1000;

/**
 * nodemailer error codes seen without an SMTP reply, with our verdict and the enhanced code we
 * assign (Postfix uses the same codes for the same local conditions). Unknown codes defer.
 */
const LOCAL_ERRORS: Record<string, { kind: DeliveryKind; enhancedCode: string }> = {
  ECONNECTION: { kind: "deferred", enhancedCode: "4.4.2" }, // RFC 3463 §3.5 bad connection
  ESOCKET: { kind: "deferred", enhancedCode: "4.4.1" }, // RFC 3463 §3.5 no answer from host
  ETIMEDOUT: { kind: "deferred", enhancedCode: "4.4.2" },
  EDNS: { kind: "deferred", enhancedCode: "4.4.3" }, // RFC 3463 §3.5 directory server failure
  ETLS: { kind: "deferred", enhancedCode: "4.7.5" }, // RFC 3463 §3.8 cryptographic failure
  EPROTOCOL: { kind: "deferred", enhancedCode: "4.5.0" }, // RFC 3463 §3.6 protocol status
  EPROXY: { kind: "deferred", enhancedCode: "4.4.1" },
  ESTREAM: { kind: "deferred", enhancedCode: "4.3.0" }, // our own read failed: retry
  EABORT: { kind: "deferred", enhancedCode: "4.3.0" }, // shutdown mid-send: retry
  EMAXLIMIT: { kind: "deferred", enhancedCode: "4.3.0" },
  // Smarthost credentials are operator configuration, fixable without touching the message.
  EAUTH: { kind: "deferred", enhancedCode: "4.7.8" }, // RFC 4954 §6 credentials invalid
  ENOAUTH: { kind: "deferred", enhancedCode: "4.7.8" },
  EOAUTH2: { kind: "deferred", enhancedCode: "4.7.8" },
  ECONFIG: { kind: "deferred", enhancedCode: "4.3.5" }, // RFC 3463 §3.4 system incorrectly configured
  // RFC 8689 §5: a REQUIRETLS message that cannot keep its guarantee is bounced, not retried.
  EREQUIRETLS: { kind: "failed", enhancedCode: "5.7.30" },
  // Without a reply these are nodemailer's own checks of our envelope and message: the same
  // input fails the same way every time.
  EENVELOPE: { kind: "failed", enhancedCode: "5.1.3" }, // RFC 3463 §3.2 bad address syntax
  EMESSAGE: { kind: "failed", enhancedCode: "5.3.4" }, // RFC 3463 §3.4 message too big
};

/** Parses an RFC 3463 enhanced status code at the start of `text` (after any reply code). */
export function parseEnhancedCode(text: string): string | undefined {
  const rest = text.replace(REPLY_LINE_RE, "").trimStart();
  const match = ENHANCED_CODE_RE.exec(rest);
  return match ? `${match[1]}.${Number(match[2])}.${Number(match[3])}` : undefined;
}

/** Joins a multi-line reply into one line, keeping the first line's code prefix only. */
export function flattenReply(response: string): string {
  const lines = response.split(/\r?\n/).filter((line) => line.trim() !== "");
  const parts = lines.map((line, i) => {
    if (i === 0) return line.trim().replace(/^(\d{3})-/, "$1 ");
    // RFC 5321 §4.2.1: continuation lines repeat the code (and, RFC 2034 §4, the enhanced code).
    const withoutCode = line.replace(REPLY_LINE_RE, "").trimStart();
    return withoutCode.replace(ENHANCED_CODE_RE, "").trim();
  });
  return parts.join(" ").replace(/\s+/g, " ").slice(0, MAX_MESSAGE_CHARS);
}

/** Classifies one attempt. The reply code, when there is one, beats the nodemailer error code. */
export function classifyReply(input: ReplyInput): DeliveryOutcome {
  const text = input.response ? flattenReply(input.response) : "";
  const code = replyCode(input.responseCode) ?? replyCode(Number(REPLY_LINE_RE.exec(text)?.[1]));
  if (code !== undefined) return classifyCode(code, text, input.command ?? "");
  return classifyLocalError(input);
}

function replyCode(value: number | undefined): number | undefined {
  return value !== undefined && Number.isInteger(value) && value >= 200 && value <= 599 ? value : undefined;
}

function classifyCode(code: number, text: string, command: string): DeliveryOutcome {
  const replyClass = Math.floor(code / 100);
  const message = text || String(code);
  let enhancedCode = parseEnhancedCode(text);
  // RFC 5321 §4.2.1: the first digit of the reply decides success, transient or permanent.
  // An enhanced code whose class contradicts it (e.g. "550 4.2.2") is not trusted: it is
  // replaced by the generic <class>.0.0 (RFC 3463 §3.1), as Postfix's bounce_append() does.
  if (enhancedCode !== undefined && enhancedCode[0] !== String(replyClass)) {
    enhancedCode = replyClass === 3 ? undefined : `${replyClass}.0.0`;
  }
  const base = { code, message, ...(enhancedCode ? { enhancedCode } : {}) };
  if (replyClass === 2) return { kind: "delivered", permanent: false, ...base };
  // 3xx as a final answer means the dialogue broke (e.g. 354 without end of data): retry.
  if (replyClass === 3 || replyClass === 4) return { kind: "deferred", permanent: false, ...base };
  if (isTemporaryDespite5xx(code, enhancedCode, command)) return { kind: "deferred", permanent: false, ...base };
  return { kind: "failed", permanent: true, ...base, ...(command ? { command } : {}) };
}

/** The 5xx replies we retry anyway, each for a documented reason. */
function isTemporaryDespite5xx(code: number, enhancedCode: string | undefined, command: string): boolean {
  // RFC 3463 §3.3: X.2.2 mailbox full "should be used as a persistent transient failure";
  // the recipient can make room. Retried until the queue lifetime ends, then failed.
  if (enhancedCode?.startsWith("5.2.2")) return true;
  // RFC 5321 §4.5.3.1.10: 552 to RCPT is the RFC 821 "too many recipients" and SHOULD be
  // treated as temporary; the remaining recipients go in a later transaction.
  if (code === 552 && /^RCPT/i.test(command)) return true;
  // 503 bad sequence of commands is about the session state, not the message (nodemailer's
  // isPermanentResponseCode makes the same exception).
  if (code === 503) return true;
  // 5xx to the greeting, EHLO, STARTTLS or AUTH rejects the connection (our IP, our smarthost
  // credentials), not this message: defer and let other MX hosts or a fixed config take it,
  // like Postfix's default smtp_skip_5xx_greeting = yes.
  return SESSION_COMMAND_RE.test(command);
}

function classifyLocalError(input: ReplyInput): DeliveryOutcome {
  const errorCode = input.errorCode ?? "";
  const known = LOCAL_ERRORS[errorCode];
  const detail = input.errorMessage?.trim() || (errorCode ? "delivery error" : "no reply and no error code");
  const message = (errorCode ? `${errorCode}: ${detail}` : detail).slice(0, MAX_MESSAGE_CHARS);
  if (!known) {
    // Unknown or missing codes (ECONNREFUSED from a raw socket, ...) are retried until the
    // queue lifetime ends rather than dropped on a guess.
    return { kind: "deferred", permanent: false, enhancedCode: "4.0.0", message };
  }
  let enhancedCode = known.enhancedCode;
  // nodemailer raises EMESSAGE locally for "Empty message" as well as for the SIZE limit.
  if (errorCode === "EMESSAGE" && !/size/i.test(detail)) enhancedCode = "5.6.0";
  return { kind: known.kind, permanent: known.kind === "failed", enhancedCode, message };
}

/**
 * When to try again after `attempts` failed attempts, or null when the queue lifetime is over.
 * `schedule[n - 1]` is the wait after attempt n (ms); past its end the last step repeats.
 * The last retry is pulled in to the moment the lifetime ends, so a message is neither given
 * up early nor kept past `firstAttemptAt + lifetimeMs` (RFC 5321 §4.5.4.1: give-up time
 * generally 4-5 days, retry interval at least 30 minutes, both configurable).
 */
export function nextAttemptAt(
  attempts: number,
  firstAttemptAt: number,
  now: number,
  schedule: number[],
  lifetimeMs: number,
): number | null {
  const expiresAt = firstAttemptAt + lifetimeMs;
  if (now >= expiresAt || schedule.length === 0) return null;
  const index = Math.min(Math.max(1, Math.floor(attempts)), schedule.length) - 1;
  const step = Math.max(0, schedule[index] ?? 0);
  return Math.min(now + step, expiresAt);
}
