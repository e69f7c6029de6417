// sisimai's bounce reasons (https://libsisimai.org/en/reason/) as SparkPost bounce classes. The
// per-host tables (rhost.ts) name a reason; this is the one place that says what each reason means
// here: an address that cannot receive mail is hard (10), a refusal of our mail or its sender a
// block (50-54), anything a later try may pass soft (20-24, 40).
import type { BounceClass } from "./classes.ts";

const CLASS_OF_REASON: Record<string, BounceClass> = {
  userunknown: 10, hasmoved: 10, hostunknown: 10, notaccept: 10, suspend: 10,
  mailboxfull: 22, exceedlimit: 23, mesgtoobig: 23, systemerror: 40, systemfull: 40, networkerror: 21,
  expired: 24, mailererror: 40, syntaxerror: 40, onhold: 40, undefined: 1,
  filtered: 50, rejected: 50, blocked: 50, policyviolation: 50, securityerror: 50, contenterror: 50,
  authfailure: 50, requireptr: 50, notcompliantrfc: 50, failedstarttls: 50, toomanyconn: 50, speeding: 50,
  badreputation: 51, spamdetected: 52, virusdetected: 52, norelaying: 54,
};
/** Misspellings in the published tables (rhost/tencent.rb "spandetected", rhost/spectrum.rb "blokced"). */
const ALIASES: Record<string, string> = { spandetected: "spamdetected", blokced: "blocked" };

/** The class of a sisimai reason name, or undefined for a name it does not define. */
export function classOfReason(reason: string): BounceClass | undefined {
  const r = reason.trim().toLowerCase();
  return CLASS_OF_REASON[ALIASES[r] ?? r];
}

/** PowerMTA's bounce categories as sisimai reads them (lib/sisimai/lhost/powermta.rb Categories;
 *  "inactive-mailbox" is sisimai's "disabled", its suspend). */
const MTA_CATEGORY: Record<string, string> = {
  "bad-domain": "hostunknown", "bad-mailbox": "userunknown", "inactive-mailbox": "suspend", "message-expired": "expired",
  "no-answer-from-host": "networkerror", "policy-related": "policyviolation", "quota-issues": "mailboxfull",
  "routing-errors": "systemerror", "spam-related": "spamdetected",
};

/** The sisimai reason a reporting MTA's own category names, or undefined. */
export const reasonOfMtaCategory = (category: string): string | undefined => MTA_CATEGORY[category.trim().toLowerCase()];
