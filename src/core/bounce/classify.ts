// The one bounce classifier: a synchronous SMTP reply, an asynchronous DSN (RFC 3464) and a
// plain-text bounce all come here as codes plus diagnostic text, and leave as a SparkPost bounce
// class. What the failure states decides first (stated.ts: the RFC 3463 status, the refused command,
// the receiver's own published text), then a receiver's table or an MTA's verdict, then the words
// (sisimai's phrase lists, patterns.ts), then the enhanced and the reply code alone. Pure.
import { bounceCategory, type BounceCategory, type BounceClass } from "./classes.ts";
import { readCodes, type Codes } from "./codes.ts";
import { classFromText, isDecisiveNonAddressText, isDisabledAccountText, isMailboxUnknownText } from "./patterns.ts";
import { DNSBL_ERROR, HELO_REFUSED, LISTED_SOURCE, POLICY_REFUSAL, RELAY_REFUSED, SENDER_REFUSED, TOO_MANY_BAD_RECIPIENTS } from "./our-traffic.ts";
import { classFromProviderCode } from "./providers.ts";
import { classOfReason, reasonOfMtaCategory } from "./reasons.ts";
import { rhostReason } from "./rhost.ts";
import { statedByText, statedClass } from "./stated.ts";
import { matches as matchesReason, sisimaiReasonOf } from "./sisimai-reason.ts";

export interface BounceInput {
  code?: number;
  enhancedCode?: string;
  /** Diagnostic text: the SMTP reply, a DSN's Diagnostic-Code, or the sentence of a text bounce. */
  text?: string;
  /** The failure is the end of retries over a queue lifetime (our queue or the remote MTA's). */
  expired?: boolean;
  /** The host that answered (a DSN's Remote-MTA), the one that wrote the report (Reporting-MTA) and the
   *  recipient's domain: they pick a receiver's own table (rhost.ts). */
  remoteHost?: string;
  reportingHost?: string;
  recipientDomain?: string;
  /** The reporting MTA's own category for the failure (PowerMTA's X-PowerMTA-BounceCategory). */
  mtaCategory?: string;
  /** A DSN's own Status field and Diagnostic-Code type ("smtp", "x-unix"), when the failure came in a report. */
  status?: string;
  diagnosticType?: string;
  /** The SMTP command the receiver refused ("RCPT", "DATA"...); "unknown" when a bounce report
   *  does not say; absent when the caller does not track commands at all. */
  command?: string;
}

export interface BounceVerdict {
  bounceClass: BounceClass;
  category: BounceCategory;
  /** Codes as read and repaired ("550 550 5.1.1" → 550 and 5.1.1). */
  code?: number;
  enhancedCode?: string;
}

/** The text read: longer than any caller's (replies and reports' diagnostics are cut at 1000 to 1500 characters), and
 *  short enough that phrase rules which scan on from each start ("client host .* blocked") stay cheap on any text. */
const MAX_TEXT_CHARS = 2000;

/** RFC 3463 subject.detail → class, for failures whose text says nothing recognisable. */
const PERMANENT_DETAIL: Record<string, BounceClass> = {
  "1.0": 10, "1.1": 10, "1.2": 10, "1.3": 10, "1.4": 10, "1.5": 10, "1.6": 10, "1.10": 10, "1.7": 50, "1.8": 50, "1.9": 40,
  "2.0": 20, "2.1": 20, "2.2": 22, "2.3": 23, "2.4": 40,
  "3.0": 40, "3.1": 20, "3.2": 20, "3.3": 40, "3.4": 23, "3.5": 40,
  "4.0": 40, "4.1": 24, "4.2": 24, "4.3": 21, "4.4": 10, "4.5": 70, "4.6": 40, "4.7": 24,
  "5.0": 40, "5.3": 20, "6.0": 40,
  "7.13": 10, "7.17": 10, "7.18": 10, "7.28": 51,
};
const TRANSIENT_DETAIL: Record<string, BounceClass> = {
  "2.2": 22, "3.4": 23, "4.1": 24, "4.2": 24, "4.3": 21, "4.4": 21, "4.7": 24, "7.28": 51,
};

function classFromEnhanced(enhanced: string): BounceClass | undefined {
  const [cls, subject, detail] = enhanced.split(".");
  const key = `${subject}.${detail}`;
  if (cls === "4") return TRANSIENT_DETAIL[key] ?? 70;
  if (cls !== "5") return undefined;
  if (key === "0.0") return undefined; // says only "permanent": the reply code may say more
  return PERMANENT_DETAIL[key] ?? (subject === "7" ? 50 : subject === "6" || subject === "5" ? 40 : undefined);
}

/** RFC 5321 §4.2 reply codes when nothing else is known (RFC 7504: 521/556 no mail accepted). */
function classFromReply(code: number): BounceClass {
  if (code >= 400 && code < 500) return code === 452 ? 22 : 70;
  if ([550, 551, 553, 521, 556].includes(code)) return 10;
  if (code === 552) return 22;
  if (code === 554 || code === 571 || code === 530 || code === 535) return 50;
  return 40;
}

/** A domain that says it takes no mail (RFC 7505; Gmail's wording of it). */
const NO_MAIL_DOMAIN = /doesn't receive email according to the administrator|null ?mx|does not accept (e-?)?mail|accepts no mail/i;

/** A mailbox said to be out of use for now ("550 4.2.1 mailbox temporarily disabled", Exchange): it may come back. */
const TEMPORARILY_GONE = /\btemporar(il)?y (disabled|unavailable|suspended|deactivated|inactive)\b/i;

/** Words of a rate or volume limit (as opposed to a busy or broken server). */
const RATE_WORDS = /rate|too many|too fast|slow(er| down)|volume|limit|throttl/i;

/**
 * A report that names no command is read as sisimai reads it (not RCPT); an MTA that never names
 * one (OpenSMTPD) is taken to have been refused at RCPT, where receivers check recipients.
 */
const COMMAND_FOR_LISTS: Record<string, string> = { unknown: "", UNREPORTED: "RCPT" };
/** A mail loop is a routing fault that a fix on either side clears: soft, whatever status it came with. */
const MAIL_LOOP = /hop count|too many hops|exceeded \d+ hops|mail loop|routing loop|loop(s)? detected/i;
/** The sender's MTA could not hold a conversation (Gmail's "TEMP_FAILURE: Could not initiate SMTP conversation",
 *  "Connection was dropped by remote host"): a network failure nobody stated a verdict in, soft, where sisimai's
 *  lists say "blocked". */
const CONNECTION_LOST = /could not initiate smtp conversation|connection (was )?dropped|temp_failure/i;
/** A temporary refusal, or retries that ran out: SparkPost's soft classes, not sisimai's reason, say it. */
const isTemporary = (input: BounceInput, codes: Codes) =>
  Boolean(input.expired) || (codes.code !== undefined ? codes.code < 500 : codes.enhancedCode?.startsWith("4") ?? false);

/** Reasons that say sisimai's lists did not recognise the failure: postern's own rules decide then. */
const UNDECIDED = new Set(["onhold", "undefined", "vacation", "delivered", "feedback"]);

/**
 * A receiver's or MTA's own number or table decides first, as sisimai's rhost and lhost tables do;
 * then, for a bounce report (a caller that tracks the command), sisimai's reason lists in sisimai's
 * order (sisimai-reason.ts), since a report's words are all there is to go on.
 */
function decidedClass(input: BounceInput, codes: Codes, text: string, saidStrongly: boolean, numbered: BounceClass | undefined): BounceClass | undefined {
  const fromHost = rhostReason({ ...input, ...codes, text });
  const fromMta = input.mtaCategory ? reasonOfMtaCategory(input.mtaCategory) : undefined;
  const own = numbered ?? [fromHost, fromMta].map((r) => (r ? classOfReason(r) : undefined)).find((c) => c !== undefined);
  if (own !== undefined || input.command === undefined) return own;
  // Our HELO refused: the receiver will not talk to our host, a block (sisimai lhost/qmail.rb, reason.rb anotherone).
  if (/^(HELO|EHLO)$/i.test(input.command)) return 50;
  if (isTemporary(input, codes) || MAIL_LOOP.test(text) || CONNECTION_LOST.test(text)) return undefined;
  // Our sender refused (Exchange Online's "550 5.1.0 Sender denied"), whatever state of a mailbox it names
  // ("Sender address rejected: mailbox disabled" is ours).
  if (SENDER_REFUSED.test(text)) return 50;
  // A disabled or suspended account is hard (#33), in words sisimai's lists may not know ("account suspended").
  if (isDisabledAccountText(text)) return 10;
  // A relay refusal is SparkPost's Relaying Denied, whatever address status came with it (Stalwart sends 5.1.2).
  if (RELAY_REFUSED.test(text)) return 54;
  // A refusal for policy, of our HELO name, or of our traffic for its bad addresses ("Too many invalid recipients"):
  // not an unknown user, whatever address status or words sisimai reads.
  if (POLICY_REFUSAL.test(text) || HELO_REFUSED.test(text) || TOO_MANY_BAD_RECIPIENTS.test(text)) return 50;
  // Our IP named as listed on a blocklist: a spam block, whatever address words sisimai's lists find beside it.
  if (LISTED_SOURCE.test(text) && !DNSBL_ERROR.test(text)) return 51;
  // Any other phrase that cannot mean anything else (an attachment or content type refused, greylisting, a rate) is
  // about our mail, whatever status sisimai's lists read (ezmlm's "don't accept messages of MIME Content-Type" under #5.2.3).
  if (isDecisiveNonAddressText(text)) return undefined;
  const type = /^x-/i.test(input.diagnosticType ?? "") ? input.diagnosticType! : "SMTP";
  const { reason, byCodeAlone } = sisimaiReasonOf({ status: input.status ?? input.enhancedCode, statusInText: readCodes({ text }).enhancedCode,
    reply: codes.code, text, command: COMMAND_FOR_LISTS[input.command] ?? input.command, diagnosticType: type, delayed: input.expired });
  // sisimai's last resort (a 501 read as a syntax error, a bare X.7 as a security error) is a code alone: specific
  // words outrank it, in the order this file follows ("550 5.0.2 Mail rejected. DMARC check failed" is our authentication).
  if (byCodeAlone && saidStrongly) return undefined;
  if (reason === "filtered" && isBareMailboxDisabled(codes.enhancedCode ?? input.status, text)) return undefined;
  // sisimai files a missing mailbox refused after RCPT, or where the report names no command, under "filtered"; the
  // vendors call it an invalid recipient (stated.ts). Its own list of such words says so here.
  if (reason === "filtered" && matchesReason("userunknown", text.toLowerCase()) && !isDecisiveNonAddressText(text)) return 10;
  return UNDECIDED.has(reason) ? undefined : classOfReason(reason);
}

/** A receiver's own table names the failure (NTT docomo's "Unknown user" is its sender filter): its
 *  reading stands over generic words, except sisimai's "filtered" for a missing mailbox, where the vendors differ. */
function hostTableDecides(input: BounceInput, codes: Codes, text: string): boolean {
  const reason = rhostReason({ ...input, ...codes, text });
  return reason !== undefined && classOfReason(reason) !== undefined && reason !== "filtered";
}

/** sisimai reads a bare X.2.1 as "filtered" by its status table alone; with no words to say so, postern keeps
 *  RFC 3463's "mailbox disabled, not accepting messages" reading (a soft bounce, PERMANENT_DETAIL). */
function isBareMailboxDisabled(status: string | undefined, text: string): boolean {
  const lower = text.toLowerCase();
  return /^5\.2\.1$/.test(status ?? "") && !matchesReason("userunknown", lower) && !matchesReason("filtered", lower);
}

export function classifyBounce(input: BounceInput): BounceVerdict {
  const codes = readCodes(input);
  const text = (input.text ?? "").slice(0, MAX_TEXT_CHARS);
  const transient = codes.code !== undefined ? codes.code < 500 : codes.enhancedCode?.startsWith("4") ?? false;
  const fromText = classFromText(text);
  const fromCode = codes.enhancedCode ? classFromEnhanced(codes.enhancedCode) : undefined;
  // A receiver's own number is the most specific of all (Sophos' XGEMAIL_0004 is an RBL listing, 51, in generic words).
  const numbered = classFromProviderCode(text);
  const decided = decidedClass(input, codes, text, fromText?.strong ?? false, numbered);
  const own = fromText && (fromText.strong || fromCode === undefined) ? fromText.cls : (fromCode ?? fromText?.cls);
  // Otherwise the decided category wins; postern's finer class stays when it agrees (a DNSBL listing is a spam block, 51).
  let cls: BounceClass | undefined = numbered ?? (decided !== undefined && (own === undefined || bounceCategory(own) !== bounceCategory(decided)) ? decided : (own ?? decided));
  if (cls === undefined && codes.code !== undefined) cls = classFromReply(codes.code);
  // A failure known to be permanent whose words say nothing recognisable failed "for unspecified
  // reasons": SparkPost's Generic Bounce (40); Undetermined (1) is left for failures with no code at all.
  const isPermanent = codes.enhancedCode?.startsWith("5") || (codes.code !== undefined && codes.code >= 500);
  cls ??= input.expired ? 24 : isPermanent ? 40 : 1;
  // What the failure states (status, command, the receiver's own text) outranks tables and phrase lists;
  // a receiver's own error number (Orange, Exchange 2003) is more specific still.
  if (!transient && !input.expired && numbered === undefined && !/^x-unix/i.test(input.diagnosticType ?? "")) {
    const stated = statedClass(codes, text, input.command) ?? (hostTableDecides(input, codes, text) ? undefined : statedByText(text));
    if (stated) cls = stated.categoryOnly && bounceCategory(cls) === "block" ? cls : stated.cls;
  }
  // A permanent refusal worded as a rate or volume limit ("receiving mail at a rate", "too many
  // recipients") refuses our traffic, not the address: a block (sisimai reasons speeding, toomanyconn).
  if (cls === 70 && decided === undefined && !transient && !input.expired && codes.code !== undefined) cls = RATE_WORDS.test(text) ? 50 : 40;
  // RFC 3463 X.1.7 / X.1.8, RFC 7505 X.7.27: our sender address or its domain was refused (the latter for a null MX,
  // maddy's "501 5.7.27 Domain in MAIL FROM has null MX record"), whatever the words say.
  // Postfix and Sendmail send X.7.27 for a recipient's null MX too ("Host does not accept mail"): only with words
  // about our sender.
  const status = codes.enhancedCode ?? "";
  if (/^5\.1\.[78]$/.test(status) || (status === "5.7.27" && /\bsender\b|mail from/i.test(text))) cls = 50;
  // A refusal of MAIL FROM or HELO came before any recipient was named: about our sender or host, unless its words name
  // a missing mailbox (a Sendmail transcript may show a refused MAIL before the RCPT that failed).
  if (/^(MAIL|HELO|EHLO)$/i.test(input.command ?? "") && bounceCategory(cls) === "hard" && !isMailboxUnknownText(text)) cls = 50;
  // A temporary refusal never makes a hard bounce (SparkPost: retries that end on 4xx replies are
  // "not usually classified as hard"): the address may well exist.
  // Except a domain that publishes it takes no mail (RFC 7505 null MX): no retry will change that.
  if (bounceCategory(cls) === "hard" && (transient || input.expired || TEMPORARILY_GONE.test(text)) && !NO_MAIL_DOMAIN.test(text)) cls = input.expired ? 24 : 20;
  if (input.expired && (cls === 70 || cls === 20 || cls === 1)) cls = 24;
  return { bounceClass: cls, category: bounceCategory(cls), ...codes };
}
