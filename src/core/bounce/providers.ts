// Receivers that number their refusals: the number decides, whatever the words around it.
// Orange / La Poste (France): "LPN007_426", "OFR_999", "OUK_513" at the end of the reply; the table
// is Orange's postmaster list as transcribed by sisimai (lib/sisimai/rhost/franceptt.rb, BSD-2).
// Numbers that only say "Service refusé, veuillez essayer plus tard" refuse our traffic: a block.
import type { BounceClass } from "./classes.ts";

const ORANGE: Record<string, BounceClass> = {
  "101": 51, "102": 51, "103": 51, "104": 50, // blocked IP, too many connections
  "105": 50, "107": 50, "108": 50, "109": 50, "201": 50, "423": 50, "424": 50, "513": 50, // "service refusé"
  "305": 50, "402": 50, "401": 50, "517": 50, // security and SPF/DNS checks
  "403": 50, "405": 50, "415": 50, "421": 50, "630": 50, "510": 51, "999": 51, // rejected, policy, blocked
  "416": 10, "420": 10, "426": 10, // unknown user, suspended account
  "417": 22, "505": 40, "506": 52, "514": 23, // mailbox full, system error, spam, too big
};
const ORANGE_RE = /\b(?:LPN|LPNAAA|OFR|OUK)(?:_(\d{3})|\d{3}[-_](\d{3}))\b/i;

/** The class a numbered provider refusal carries, or undefined. */
export function classFromProviderCode(text: string): BounceClass | undefined {
  const m = ORANGE_RE.exec(text);
  return m ? ORANGE[m[1] ?? m[2] ?? ""] : undefined;
}
