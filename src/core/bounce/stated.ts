// What a permanent failure states outright: the RFC 3463 enhanced status code and the refused
// command decide before any receiver table or phrase list; the receivers' own texts for a missing
// mailbox (receiver-texts.ts) come next, after a receiver's own table (classify.ts). The vendors' convention is followed where sisimai's differs: a mailbox that
// does not exist is an invalid recipient (SparkPost class 10, SendGrid "bounce", suppressed) even
// when the receiver refused it after DATA (Yahoo's "dd" texts), which sisimai files as "filtered".
// Temporary failures never come here: they may pass later (classify.ts keeps them soft). Pure.
import type { BounceClass } from "./classes.ts";
import type { Codes } from "./codes.ts";
import { classFromText, isDecisiveNonAddressText, isDisabledAccountText, isMailboxUnknownText } from "./patterns.ts";
import { LISTED_SOURCE } from "./our-traffic.ts";
import { statesUnknownHost, statesUnknownRecipient } from "./receiver-texts.ts";

/** RFC 3463: X.1.1 bad destination mailbox, X.1.2 bad destination system, X.1.3 bad mailbox syntax,
 *  X.1.6 mailbox moved, no forwarding; X.1.10 recipient domain takes no mail (RFC 7505 null MX). */
const ADDRESS_STATUS = /^5\.1\.(1|2|3|6|10)$/;
/** RFC 3463 X.7.13 user account disabled, X.7.17 mailbox owner changed, X.7.18 domain owner changed (RFC 3886 registry). */
const ACCOUNT_GONE_STATUS = /^5\.7\.(13|17|18)$/;
/** Statuses that say no more than "refused": X.0.0, and X.7.1 "delivery not authorized", the catch-all
 *  that Yandex ("550 5.7.1 No such user!"), Gmail and qmail's badrcptto have sent for a missing mailbox. */
const GENERIC_STATUS = /^5\.(0\.0|7\.1)$/;
/** Refusals at RCPT that name the recipient as the problem (RFC 5321 §3.3: RCPT is where a receiver
 *  says whether it takes mail for that address). */
const RECIPIENT_REFUSED = /recipient (rejected|refused|invalid)\b(?!:)|recipient (is )?not allowed|recipient <?[^\s<>]+@[^\s<>]+>? denied|(rejected|invalid|unknown|bad) recipient|is a deactivated mailbox|no longer on server|mailbox (is )?unavailable/i;

export interface Stated {
  cls: BounceClass;
  /** Only the category is stated (an X.7 policy status): a finer class of the same category may replace it. */
  categoryOnly?: boolean;
}

/** The class a permanent failure states by its status or the command it refused, or undefined. */
export function statedClass(codes: Codes, text: string, command?: string): Stated | undefined {
  const status = codes.enhancedCode ?? "";
  // Relaying, a rate limit, our sender refused, our IP on a blocklist: about our traffic, whatever status came with it
  // (Sendmail answers a 553 with X.1.3, bad mailbox syntax, whatever the 553 said).
  if (isDecisiveNonAddressText(text) || LISTED_SOURCE.test(text)) return undefined;
  // A size, quota or full-system refusal worded as one outweighs the address status or words it came with
  // ("550 RCPT TO:<x> max message size exceeded" under 5.1.1; qmail's "mailbox unavailable (not enough free
  // space)"): the address exists.
  const said = classFromText(text);
  if (said?.strong && (said.cls === 20 || said.cls === 22 || said.cls === 23)) return { cls: said.cls };
  if (ADDRESS_STATUS.test(status) || ACCOUNT_GONE_STATUS.test(status)) return { cls: 10 };
  if (status === "5.2.2") return { cls: 22 };
  if (status === "5.3.4") return { cls: 23 };
  if (status.startsWith("5.7.") && !GENERIC_STATUS.test(status) && !statesAddressGone(text)) return { cls: 50, categoryOnly: true };
  if (command?.toUpperCase() === "RCPT" && RECIPIENT_REFUSED.test(text)) return { cls: 10 };
  return undefined;
}

/** Step 5: the receiver's words say the address cannot receive, unless they are about our traffic
 *  ("Sender verify failed ... Unrouteable address" is our sender's domain, not the recipient's). */
export const statedByText = (text: string): Stated | undefined =>
  !isDecisiveNonAddressText(text) && statesAddressGone(text) ? { cls: 10 } : undefined;

/** The receiver's words say the mailbox or the domain does not exist, or the account is closed or disabled. */
export const statesAddressGone = (text: string): boolean =>
  statesUnknownRecipient(text) || statesUnknownHost(text) || isDisabledAccountText(text) || isMailboxUnknownText(text);
