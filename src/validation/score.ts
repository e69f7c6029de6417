// The pure decision: facts gathered by verdict.ts → sendex score, verdict and reason. No I/O.
//
// SENDEX (0 = no quality … 1 = perfect), anchored on Kickbox/SparkPost semantics
// (docs/validation.md repeats this):
//   1. Hard zero: bad syntax, no MX and no A/AAAA, null MX, a recorded hard bounce, or an SMTP
//      RCPT rejection. Nothing else can raise these.
//   2. Base: 1.0 when an SMTP probe accepted the mailbox; 0.9 otherwise (domain evidence only:
//      most installations cannot probe, and an unprobed healthy address must still rank
//      deliverable).
//   3. Penalties: −0.15 when mail would go to an A/AAAA record (no MX: rare and often
//      unmaintained); −0.10 for a role local part (a function, often a list, complains more);
//      −0.05 for a quoted or non-ASCII local part (many forms and MTAs mangle them). Free
//      providers cost nothing: they are where most real people are.
//   4. Caps (the lowest applies): disposable ≤ 0.1; suspected typo ≤ 0.3; DNS timeout or failure
//      ≤ 0.4; accept-all ≤ 0.6; probe inconclusive (no connect, timeout, garbage, 4xx) ≤ 0.6.
//   5. Clamp to [0, 1], round to 2 decimals.
// Buckets: ≥ 0.8 deliverable; above 0 and below 0.8 risky, unless the evidence is missing
// (DNS or SMTP inconclusive), which is unknown; 0 undeliverable.
import type { MailHostsKind, ProbeKind, Verdict, VerdictReason } from "./result.ts";

export const DELIVERABLE_MIN_SENDEX = 0.8;
const BASE_PROBED = 1.0;
const BASE_UNPROBED = 0.9;
const PENALTY_IMPLICIT_MX = 0.15;
const PENALTY_ROLE = 0.1;
const PENALTY_UNUSUAL_LOCAL = 0.05;
const CAP_DISPOSABLE = 0.1;
const CAP_TYPO = 0.3;
const CAP_DNS_UNKNOWN = 0.4;
const CAP_ACCEPT_ALL = 0.6;
const CAP_SMTP_UNKNOWN = 0.6;

export interface VerdictFacts {
  isValidSyntax: boolean;
  dns: MailHostsKind | "skipped";
  hasBounced: boolean;
  smtp: ProbeKind | "skipped";
  isDisposable: boolean;
  isRole: boolean;
  isFree: boolean;
  isSuspectedTypo: boolean;
  /** Quoted or non-ASCII local part. */
  isUnusualLocal: boolean;
}

export interface Decision {
  result: Verdict;
  reason: VerdictReason;
  sendex: number;
  message: string;
}

const SMTP_UNKNOWN_REASON: Partial<Record<ProbeKind | "skipped", VerdictReason>> = {
  no_connect: "no_connect",
  timeout: "timeout",
  invalid_smtp: "invalid_smtp",
  unavailable: "unavailable_smtp",
};

const isDnsUnknown = (f: VerdictFacts) => f.dns === "timeout" || f.dns === "error";
const isHardZero = (f: VerdictFacts) =>
  !f.isValidSyntax || f.dns === "none" || f.dns === "null_mx" || f.hasBounced || f.smtp === "reject";

/** The sendex score of the facts; see the formula at the top of this file. */
export function scoreSendex(f: VerdictFacts): number {
  if (isHardZero(f)) return 0;
  let score = f.smtp === "accept" ? BASE_PROBED : BASE_UNPROBED;
  if (f.dns === "implicit_mx") score -= PENALTY_IMPLICIT_MX;
  if (f.isRole) score -= PENALTY_ROLE;
  if (f.isUnusualLocal) score -= PENALTY_UNUSUAL_LOCAL;
  if (f.isDisposable) score = Math.min(score, CAP_DISPOSABLE);
  if (f.isSuspectedTypo) score = Math.min(score, CAP_TYPO);
  if (isDnsUnknown(f)) score = Math.min(score, CAP_DNS_UNKNOWN);
  if (f.smtp === "accept_all") score = Math.min(score, CAP_ACCEPT_ALL);
  if (SMTP_UNKNOWN_REASON[f.smtp]) score = Math.min(score, CAP_SMTP_UNKNOWN);
  return Math.round(Math.max(0, Math.min(1, score)) * 100) / 100;
}

type Outcome = Omit<Decision, "sendex">;
const outcome = (result: Verdict, reason: VerdictReason, message: string): Outcome => ({ result, reason, message });

function decideHard(f: VerdictFacts): Outcome | null {
  if (!f.isValidSyntax) return outcome("undeliverable", "invalid_email", "The address is not valid syntax.");
  if (f.hasBounced || f.smtp === "reject") {
    return outcome("undeliverable", "rejected_email", "The mail server rejects this mailbox.");
  }
  if (f.dns === "null_mx") {
    return outcome("undeliverable", "invalid_domain", "The domain publishes a null MX: it accepts no mail.");
  }
  if (f.dns === "none") return outcome("undeliverable", "invalid_domain", "The domain has no MX, A or AAAA records.");
  if (isDnsUnknown(f)) return outcome("unknown", "timeout", "DNS did not answer in time.");
  return null;
}

function decideSoft(f: VerdictFacts, sendex: number): Outcome {
  if (f.isDisposable) return outcome("risky", "low_quality", "The domain is a disposable-mail service.");
  if (f.isSuspectedTypo) return outcome("risky", "low_quality", "The domain looks like a typo.");
  const unknownReason = SMTP_UNKNOWN_REASON[f.smtp];
  if (unknownReason) return outcome("unknown", unknownReason, "The mail server gave no usable answer.");
  if (f.smtp === "accept_all") return outcome("risky", "low_deliverability", "The domain accepts every address.");
  if (sendex >= DELIVERABLE_MIN_SENDEX) {
    const how = f.smtp === "accept" ? "The mail server accepts this mailbox." : "The domain accepts mail.";
    return outcome("deliverable", "accepted_email", how);
  }
  return outcome("risky", "low_deliverability", "Delivery evidence is weak.");
}

/** Verdict, reason and sendex for the facts; hard failures first, then quality, then evidence. */
export function decideVerdict(f: VerdictFacts): Decision {
  const sendex = scoreSendex(f);
  const decision = decideHard(f) ?? decideSoft(f, sendex);
  return { ...decision, sendex };
}
