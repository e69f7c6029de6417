// Best-effort reading of bounces with no machine-readable part (qmail, older Exim, relays that
// send plain-text NDRs): recipients, status and diagnostic from the human-readable text, and
// the returned headers when they are quoted inline. reports.ts flags all of it heuristic.
import type { BounceRecipient } from "./dsn.ts";
import { MAX_DIAGNOSTIC_CHARS, parseHeaderBlock, type Diagnostic, type OriginalMessage } from "./report-fields.ts";
import { findDiagnostic, isWithinReply, lineStartWithCode, replyReader, transcriptOf, wholeReply } from "./reply-lines.ts";
import { smtpCommandOf, smtpCommandsOf } from "./smtp-command.ts";
import { openingSentence, reasonAfterMarker, reasonFirst, sentenceAfter, sentenceAround } from "./notice-sentences.ts";

export interface BounceTextInput {
  /** The report's From address and display name. */
  fromAddress?: string;
  fromName?: string;
  subject?: string;
  /** X-Failed-Recipients header (Exim), comma-separated. */
  failedRecipients?: string;
  /** The report's plain text. */
  text: string;
  /** Addresses that are not bounced recipients: the report's own From and To. */
  excluded: string[];
  /** Came to a valid VERP return path: any sender and subject; the token names the recipient. */
  trusted?: boolean;
  /** Carries a mailing list's or a bulk sender's own fields (List-Id, RFC 2919; List-Unsubscribe, RFC 2369): a post
   *  or a newsletter (an auto-reply's or spam's way to a return path), never an MTA's own report. */
  isListMail?: boolean;
}

export interface BounceText {
  recipients: BounceRecipient[];
  original?: OriginalMessage;
}

const DAEMON_ADDRESS_RE = /^(mailer[-_]?daemon|postmaster|mail-daemon)@/i;
const DAEMON_NAME_RE = /mail delivery (subsystem|system)|mailer[- ]daemon/i;
const BOUNCE_SUBJECT_RE =
  /undeliver|returned mail|failure notice|delivery (status notification|failure|failed|has failed|problem|warning|notification)|mail delivery failed|non[- ]?delivery|could not be delivered|failed mail|mail system error|delivery report|nicht zustellbar|non remis|non recapitabile/i;
/** Sentences that say a delivery failed, in a text that has no reply code. */
const BOUNCE_PHRASE_RE =
  /could not be delivered|couldn't be delivered|can(not|'t) be delivered|undeliverable|delivery (to the following recipients? )?(has )?failed|permanent(ly)? (error|fail)|(message|mail) (was )?(rejected|refused|blocked|returned)|does not exist|no such (user|mailbox|address)|(user|recipient|address) unknown|unknown (user|recipient|address)|mailbox (is )?(full|unavailable|disabled)|over quota|not a valid|was not delivered|failed to deliver|delivery failure|returned to sender|\b(was|were|been) (blocked|rejected|refused)\b|identified as spam|not a member of (this|the) (mailing )?list|duplicated message-id|malformed (recipient )?address/i;
const AUTO_REPLY_SUBJECT_RE = /^\s*(auto(matic)?[- ]?(reply|response)|out of (the )?office|autoreply)\b/i;
/** Lines that introduce the returned message in Exim, qmail, Exchange, Sendmail and 1&1 (kundenserver.de: "--- The
 *  header of the original message is following. ---") texts. The dashes before "original message" are the leading
 *  [ \t-]*'s: a "-+" of its own would split a line of dashes every way. */
const ORIGINAL_MARKER_RE =
  /^[ \t-]*(this is a copy of the message|below this line is a copy of the message|original message (headers|follows)|- ?original message ?-+|undelivered message headers|text of the returned message|the header of the original message is following)/im;
const HEADER_START_RE = /^(Return-Path|Received|DKIM-Signature|Message-ID|MIME-Version):[ \t]/im;
/** Bounded by RFC 5321 §4.5.3.1 sizes so that hostile text cannot make matching quadratic. */
const ADDRESS = String.raw`[^\s<>()"',;:@\[\]]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,10}\.[A-Za-z]{2,63}`;
const RECIPIENT_PATTERNS = [
  // qmail, Postfix text: "<user@host>:"; Postfix for an alias: "<user@host> (expanded from <alias@host>):" (bounce(5) templates).
  new RegExp(String.raw`^<(${ADDRESS})>(?: \(expanded from <[^<>\n]{1,320}>\))?:`, "gm"),
  new RegExp(String.raw`^"(${ADDRESS})":`, "gm"), // GMX: "\"user@host\":"
  new RegExp(String.raw`<(${ADDRESS})>\.\.\. `, "g"), // Sendmail: "<user@host>... User unknown"
  // IMail and others: "Unknown user: user@host", "User unknown: <user@host>".
  new RegExp(String.raw`^[ \t]*(?:unknown user|user unknown|no such user|invalid (?:recipient|user|address)|mailbox (?:unavailable|full|not found)|user mailbox exceeded quota)[^:\n]{0,40}:\s*<?(${ADDRESS})>?`, "gim"),
  // An address alone on its line: Exim's indented list, Exchange's "user@host<mailto:user@host>".
  new RegExp(String.raw`^[ \t]*<?(${ADDRESS})>?(?:<mailto:[^>\s]*>)?[ \t]*$`, "gm"),
  new RegExp(String.raw`^[ \t]*'?(${ADDRESS})'? on `, "gm"), // Exchange 2003 "user@host on <date>", 5.5's IMC "'user@host' on <date>"
  new RegExp(String.raw`(?:delivered|delivery|message) to:?\s*<?(${ADDRESS})>?`, "gi"), // O365, Gmail prose
  // DragonFly, OpenSMTPD, IMail, Zoho, GMX prose: "error delivering your mail to <x>", "sending to x".
  // (Its words after the verb each take their own spaces: "\s+" then an optional word and "\s*" would split a run of
  // spaces every way before failing.)
  new RegExp(String.raw`(?:deliver(?:ing|ed)?|send(?:ing)?|sent)\s+(?:(?:your|the)\s+)?(?:(?:mail|message|e-?mail)\s*)?(?:to|for):?\s*<?(${ADDRESS})>?`, "gi"),
  // DSN fields quoted in text, and "Failed recipient: x" / "Recipient address: x" lines.
  new RegExp(String.raw`^[ \t]*(?:final|original)-recipient:\s*(?:rfc822\s*;\s*)?<?(${ADDRESS})>?`, "gim"),
  // Apache James / Verizon "Message details": "  RCPT TO: user@host"; Postfix transcripts " In:  RCPT TO:<x>".
  new RegExp(String.raw`^[ \t]*(?:In:[ \t]*)?RCPT TO:\s*<?(${ADDRESS})>?`, "gim"),
  // (Found from "recipient" on: an optional "failed" and "\s*" before it would read a run of spaces from each space.)
  new RegExp(String.raw`recipient(?:s|\(s\))?(?:\s+address)?\s*:\s*<?(${ADDRESS})>?`, "gi"),
];
/** Said when an MTA gives up, whatever reply it quotes: qmail-send's "I'm not going to try again; this message has
 *  been in the queue too long." after a (#4.4.1), and its "This is a permanent error; I've given up."; Postfix's
 *  bounce template "I'm sorry to have to inform you that your message could not be delivered" (its delay warning
 *  says "THIS IS A WARNING ONLY" instead); Exim's "retry timeout exceeded" under a quoted 4xx. */
const GAVE_UP_RE = /not going to try again|been in the queue too long|retry timeout exceeded|this is a permanent error; i've given up|i'm sorry to have to inform you that your message could not\s+be\s+delivered/i;
const DELAY_PHRASE_RE = /delayed|will (be )?retr(y|ied)|still being retried|warning only|not yet been delivered|could not send message for past|still undelivered|will (keep|continue) trying|delivery attempts will continue|continue to (be )?attempt|address\(es\) deferred|will be re-?attempted|this is a temporary error/i;
/** A warning's subject: Exim's "Warning: message x delayed 2 hours", the "(Delay)" of Gmail and Exchange, Postfix's
 *  "Delayed Mail" and RFC 3464's example "WARNING: message delayed at ...", read when the body says nothing of it. */
const DELAY_SUBJECT_RE = /^\s*warning\b.{0,80}\bdelayed\b|\(delay\)|^\s*delayed mail\b|^\s*delivery delayed\b/i;
/** What the whole notice says of its failures, read once: a warning (still retrying), or a give-up. */
const toneOf = (notice: string, subject: string) => ({ delayed: DELAY_PHRASE_RE.test(notice) || DELAY_SUBJECT_RE.test(subject), gaveUp: GAVE_UP_RE.test(notice) });

/** What the recipients of one notice read alike, each read once: a hundred recipients each reading a notice of MBs
 *  again would cost a hundred times its length. */
interface Reading { notice: string; lower: () => string; tone: () => ReturnType<typeof toneOf>; firstReply: () => Diagnostic | undefined;
  replyFrom: (from: number) => Diagnostic | undefined; transcript: () => string[] }
const once = <T>(read: () => T): (() => T) => { let kept: { value: T } | undefined; return () => (kept ??= { value: read() }).value; };
function readingOf(notice: string, subject: string): Reading {
  const reader = once(() => replyReader(notice));
  return { notice, lower: once(() => notice.toLowerCase()), tone: once(() => toneOf(notice, subject)), firstReply: once(() => findDiagnostic(notice)),
    replyFrom: (from) => reader()(from), transcript: once(() => transcriptOf(notice)) };
}
const LIST_NOTICE_RE = /not a member of (this|the) (mailing )?list|duplicated message-id/i;
/** A bounce lists the recipients of one message to one host; more is noise (and quadratic). */
const MAX_RECIPIENTS = 100;
const MAX_MENTIONS = 1000;

/** Reads a plain-text bounce, or returns null when the message does not look like one. */
export function parseBounceText(input: BounceTextInput): BounceText | null {
  const subject = input.subject ?? "";
  if (AUTO_REPLY_SUBJECT_RE.test(subject)) return null;
  const hasFailedHeader = Boolean(input.failedRecipients?.trim());
  const { notice, originalText } = splitAtOriginal(input.text);
  // Not the null sender alone: vacation programs and challenge-response systems send with it too (RFC 3834 §3.3).
  const isFromDaemon = DAEMON_ADDRESS_RE.test(input.fromAddress ?? "") || DAEMON_NAME_RE.test(input.fromName ?? "");
  // A VERP path vouches for where a message came from, not that it is a bounce: a person's reply
  // to the return path must still read like one (a reply code, or a failure sentence).
  const isHumanReply = /^\s*(re|aw|sv|antw|r)\s*:/i.test(subject) && /^(on .{4,200} wrote:|>)/im.test(input.text);
  // Read once: the notice's first reply decides here and is every unnamed recipient's below.
  const reading = readingOf(notice, subject);
  const isTrustedBounce = Boolean(input.trusted) && !isHumanReply && !input.isListMail &&
    (BOUNCE_SUBJECT_RE.test(subject) || BOUNCE_PHRASE_RE.test(notice) || isSmtpReply(reading.firstReply()));
  const isVouched = isFromDaemon || hasFailedHeader || isTrustedBounce;
  if (!isVouched && !BOUNCE_SUBJECT_RE.test(subject)) return null;
  const addresses = findRecipients(notice, input.failedRecipients ?? "", input.excluded);
  const mentions = findMentions(reading.lower(), addresses);
  // Its link to the help centre, its name, or its fixed English opening ("the group you tried to contact (x) may not exist").
  const isGoogleGroups = /groups\.google\.com\/support|^google groups\b|the group you tried to contact\s+\(/im.test(notice);
  // A list server's notice (fml) says why at its start; the addresses it names come later. So does
  // Post.Office / InterMail: "undeliverable due to the following reason:", the reason, then the recipients.
  const opening = LIST_NOTICE_RE.test(notice.slice(0, 500)) ? sentenceAfter(notice, 0) : reasonFirst(notice);
  const commands = smtpCommandsOf(notice, addresses);
  const recipients = addresses.map((address, i) => {
    const read = readRecipient(reading, address, mentions);
    const r = withSubjectReason(asGoogleGroups(opening && !read.diagnostic?.code ? { ...read, diagnostic: opening } : read, isGoogleGroups), subject);
    const command = commands[i];
    return command ? { ...r, command } : r;
  });
  // Through a VERP path the token names the recipient: a carrier's "message blocked" without any
  // address still counts, and so does any bounce by its sender or subject (MAILER-DAEMON, a null
  // sender, "Undeliverable"): it is accepted and classified on whatever it says, never refused.
  if (recipients.length === 0 && input.trusted && !isHumanReply && (isTrustedBounce || isVouched)) {
    const read = readRecipient(reading, "", []);
    const anonymous = read.diagnostic ? asGoogleGroups(withSubjectReason(read, subject), isGoogleGroups) : { ...read, diagnostic: { type: "text", text: subject.trim().slice(0, MAX_DIAGNOSTIC_CHARS) || "undeliverable" } };
    const command = smtpCommandOf(notice, "");
    recipients.push(command ? { ...anonymous, command } : anonymous);
  }
  if (recipients.length === 0) return null;
  // A bounce-like subject alone is weak evidence: also require a status code in the text.
  if (!isVouched && recipients.every((r) => !r.diagnostic?.code && !r.diagnostic?.enhancedCode)) return null;
  const original = originalText ? parseHeaderBlock(originalText) : undefined;
  return { recipients, ...(original ? { original } : {}) };
}

/** A reply code alone is any number at a line's start ("550 of each, and test once", "454 Shotwell Street"): in mail
 *  that nothing else marks as a bounce, it counts only with an enhanced status code or words a server's reply uses. */
const REPLY_WORDS_RE = /\b(user|mailbox|recipient|address|domain|host|relay(ing)?|reject(ed)?|refused|denied|blocked|unknown|unavailable|quota|full|spam|virus|policy|message|mail|delivery|service|access|sender|smtp|rcpt|dns|connection|transaction|failed|failure|error|invalid|temporar(y|ily)|try again|greylist(ed|ing)?|limit|exceeded|size|timed? ?out|not found|does not exist)\b/i;
function isSmtpReply(d: Diagnostic | undefined): boolean {
  return Boolean(d?.code) && (Boolean(d?.enhancedCode) || REPLY_WORDS_RE.test(d?.text.slice(0, 300) ?? ""));
}

/** Sendmail names the failure in its subject ("Returned mail: User unknown", "Returned mail: Host unknown (Name server:
 *  x: host not found)"); its usual "see transcript for details" says nothing. */
const SENDMAIL_SUBJECT_RE = /^\s*returned mail:\s*(?!see transcript)(\S.{2,150})$/i;
/** Sendmail's own reasons: its sysexits texts (sendmail/sysexits.c SysExMsg) and the queue's give-up and warning lines
 *  (savemail.c). Other systems copy the prefix but put the returned message's own subject after it (Prodigy, 2002:
 *  "Returned mail: [SACVS] CVS: ..."), and a newsletter's subject must not outrank the notice's words. */
const SENDMAIL_REASON_RE = /^(user unknown|host unknown|unknown host|service unavailable|deferred\b|cannot send message|can't create output|data format error|local configuration error|remote protocol error|insufficient permission|internal error|operating system error|system file missing|i\/o error|cannot open input|bad usage|unable to deliver|too many hops|mail loops back|unknown mailer error)/i;

/** A notice whose body gives no reply code (a transcript left out or cut off, AOL's own wording around it) is read
 *  with the reason Sendmail's subject gives, ahead of its sentences; any other text after that prefix only when the
 *  notice says nothing itself. */
function withSubjectReason(r: BounceRecipient, subject: string): BounceRecipient {
  const reason = SENDMAIL_SUBJECT_RE.exec(subject)?.[1]?.trim();
  if (!reason || r.diagnostic?.code || r.diagnostic?.enhancedCode) return r;
  const said = r.diagnostic?.text ?? "";
  const text = SENDMAIL_REASON_RE.test(reason) ? `${reason}. ${said}` : said || reason;
  return { ...r, diagnostic: { type: "text", text: text.trim().slice(0, 600) } };
}

/** Google Groups answers a refused post in the poster's language, with a link to its help centre:
 *  the diagnostic says so in words the classifier reads whatever the language. */
function asGoogleGroups(r: BounceRecipient, isGoogleGroups: boolean): BounceRecipient {
  if (!isGoogleGroups) return r;
  return { ...r, diagnostic: { type: "text", ...r.diagnostic, text: `Google Groups: the group refused the post. ${r.diagnostic?.text ?? ""}`.trim() } };
}

/**
 * What the human-readable part of a DSN adds for one recipient: the SMTP command refused, and the
 * receiver's reply when the machine-readable part has none (OpenSMTPD writes Status 5.0.0, no
 * Diagnostic-Code, and the reply only in its text: "user@host: 550 5.7.26 ...").
 */
export function withTextEvidence(recipients: BounceRecipient[], text: string): BounceRecipient[] {
  if (!text) return recipients;
  const reading = readingOf(splitAtOriginal(text).notice, "");
  // Bounded like a text bounce's recipients: a hostile report's thousands of groups are not each read.
  const commands = smtpCommandsOf(reading.notice, recipients.slice(0, MAX_RECIPIENTS).map((r) => r.finalRecipient));
  return recipients.map((r, i) => (i < MAX_RECIPIENTS ? withEvidenceOf(r, reading, commands[i], recipients.length === 1) : r));
}

/** A recipient the text does not name borrows no one else's reply, unless it is the only one. */
function withEvidenceOf(r: BounceRecipient, reading: Reading, named: string | undefined, isOnly: boolean): BounceRecipient {
  const command = r.command ?? named;
  // An empty Diagnostic-Code ("SMTP; ", Sendmail's when the receiver's 421 closed the connection) states nothing; a
  // multi-line reply's first line alone (Sendmail's too) is completed from the transcript.
  const stated = r.diagnostic?.continues ? (wholeReply(r.diagnostic, reading.transcript()) ?? r.diagnostic) : r.diagnostic?.text.trim() ? r.diagnostic : undefined;
  const mentions = stated ? [] : findMentions(reading.lower(), [r.finalRecipient]);
  const diagnostic = stated ?? (mentions.length > 0 || isOnly ? readRecipient(reading, r.finalRecipient, mentions).diagnostic : undefined);
  return { ...r, ...(diagnostic ? { diagnostic } : {}), ...(command ? { command } : {}) };
}

/** A bounce a person forwarded (Outlook's "-----Original Message-----" and its From:/Sent:/To:/Subject: lines at the
 *  top, or its Spanish, German, French, Portuguese or Italian forms: "-----Mensaje original-----" with De:/Enviado el:/
 *  Para:/Asunto:): the notice is what follows them, not the returned message. */
const FORWARDED_RE =
  /^\s*-+ ?(original message|mensaje original|ursprüngliche nachricht|message d'origine|mensagem original|messaggio originale) ?-+[ \t]*\n(?:[\p{L} -]{2,20} ?:[^\n]*\n){1,8}/iu;

function splitAtOriginal(text: string): { notice: string; originalText?: string } {
  const normalized = text.replace(/\r\n?/g, "\n").replace(FORWARDED_RE, "");
  const marker = ORIGINAL_MARKER_RE.exec(normalized);
  const searchFrom = marker ? marker.index + marker[0].length : 0;
  const rest = normalized.slice(searchFrom);
  const header = HEADER_START_RE.exec(rest);
  const noticeEnd = marker ? marker.index : header ? header.index : normalized.length;
  return {
    notice: normalized.slice(0, noticeEnd),
    ...(header ? { originalText: rest.slice(header.index) } : {}),
  };
}

function findRecipients(notice: string, failedRecipients: string, excluded: string[]): string[] {
  const skip = new Set(excluded.map((address) => address.toLowerCase()));
  const found = new Map<string, string>();
  const add = (address: string) => {
    const key = address.toLowerCase();
    if (!skip.has(key) && !found.has(key)) found.set(key, address);
  };
  for (const address of failedRecipients.split(",")) if (address.trim()) add(address.trim().replace(/^<(.*)>$/, "$1"));
  for (const pattern of RECIPIENT_PATTERNS) {
    for (const match of notice.matchAll(pattern)) if (match[1]) add(match[1]);
  }
  return [...found.values()].slice(0, MAX_RECIPIENTS);
}

/**
 * Status and diagnostic for one recipient: the first of its mentions whose text, up to the
 * next mention of another recipient, carries a code. Exchange lists every recipient first and
 * gives the diagnostics later, so the first mention alone is not enough.
 */
function readRecipient(reading: Reading, address: string, mentions: Mention[]): BounceRecipient {
  const { notice } = reading;
  const key = address.toLowerCase();
  let diagnostic: Diagnostic | undefined;
  for (let i = 0; i < mentions.length && !diagnostic; i++) {
    const mention = mentions[i];
    // Only the first of a run of mentions: the later ones' text is a suffix of its text.
    if (mention?.key !== key || mentions[i - 1]?.key === key) continue;
    let end = i + 1;
    while (mentions[end] && (mentions[end]!.key === key || isWithinReply(notice, mentions[end]!.at))) end++;
    const start = lineStartWithCode(notice, mention.at);
    const stop = mentions[end]?.at;
    diagnostic = stop === undefined ? reading.replyFrom(start) : findDiagnostic(notice.slice(start, stop));
  }
  diagnostic ??= reading.firstReply();
  // A DSN flattened into text: its bare "Status: 5.0.0" field says only "permanent"; the words under the address say why
  // (Exim's "me@x\n  Unrouteable address").
  if (diagnostic && !diagnostic.code && /^5\.0\.0$/.test(diagnostic.enhancedCode ?? "") && /^[\w-]+:/.test(diagnostic.text)) {
    const said = mentions.find((m) => m.key === key);
    const words = said ? sentenceAround(notice, said.at, key.length) : undefined;
    if (words && !/^[\w-]+:/.test(words.text)) diagnostic = { ...words, enhancedCode: diagnostic.enhancedCode };
  }
  // No code anywhere (Exchange 2003, IMail, carriers): the sentence after the address says why;
  // Exchange names the recipient first in the quoted header, so the last mention is tried first.
  for (let i = mentions.length - 1; i >= 0 && !diagnostic; i--) if (mentions[i]!.key === key) diagnostic = sentenceAround(notice, mentions[i]!.at, key.length);
  diagnostic ??= reasonAfterMarker(notice) ?? openingSentence(notice);
  const enhanced = diagnostic?.enhancedCode;
  const tone = reading.tone();
  const codeClass = diagnostic?.code ? String(diagnostic.code)[0] : undefined;
  const status =
    enhanced && enhanced[0] !== "2"
      ? enhanced
      : codeClass
        ? `${codeClass}.0.0`
        : tone.delayed ? "4.0.0" : "5.0.0";
  return {
    finalRecipient: address,
    action: status.startsWith("4") && !tone.gaveUp ? "delayed" : "failed",
    status,
    ...(diagnostic ? { diagnostic } : {}),
  };
}

interface Mention {
  key: string;
  at: number;
}

/** Every position where a recipient is named in a notice (lower case), in text order. */
function findMentions(lower: string, addresses: string[]): Mention[] {
  const mentions: Mention[] = [];
  for (const address of addresses) {
    const key = address.toLowerCase();
    for (let at = lower.indexOf(key); at >= 0 && mentions.length < MAX_MENTIONS; at = lower.indexOf(key, at + key.length)) {
      mentions.push({ key, at });
    }
  }
  return mentions.sort((a, b) => a.at - b.at);
}

