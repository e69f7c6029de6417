// Receivers and MTAs that number their refusals: the number decides, whatever the words around it.
// Orange / La Poste (France): "LPN007_426", "OFR_999", "OUK_513" at the end of the reply; the table
// is Orange's postmaster list as transcribed by sisimai (lib/sisimai/rhost/franceptt.rb, BSD-2).
// Numbers that only say "Service refusé, veuillez essayer plus tard" refuse our traffic: a block.
import type { BounceClass } from "./classes.ts";

const ORANGE: Record<string, BounceClass | "rate"> = {
  "101": 51, "102": 51, "103": 51, // blocked IP
  "104": "rate", // "Trop de connexions ... / Too many connections, slow down" (OFR004_104): a count per connection
  "105": 50, "107": 50, "108": 50, "109": 50, "201": 50, "423": 50, "424": 50, "513": 50, // "service refusé"
  "305": 50, "402": 50, "401": 50, "517": 50, // security and SPF/DNS checks
  "403": 50, "405": 50, "415": 50, "421": 50, "630": 50, "510": 51, "999": 51, // rejected, policy, blocked
  "416": 10, "420": 10, "426": 10, // unknown user, suspended account
  "417": 22, "505": 40, "506": 52, "514": 23, // mailbox full, system error, spam, too big
};
const ORANGE_RE = /\b(?:LPN|LPNAAA|OFR|OUK)(?:_(\d{3})|\d{3}[-_](\d{3}))\b/i;

// Microsoft Exchange 2000/2003 NDRs end with "MSEXCH:IMS:<org>:<site>:<server> 0 (000C05A6)": the
// hexadecimal diagnostic names the failure (sisimai lib/sisimai/lhost/exchange2003.rb ErrorCodes, BSD-2).
const EXCHANGE: Record<string, BounceClass> = {
  "000C05A6": 10, // Unknown Recipient
  "000C0595": 10, // Ambiguous Recipient: RFC 3463 X.1.4, an address problem (Microsoft KB 251152), not our traffic
  "000B099C": 40, "000B09AA": 40, "000B09B6": 40, // host unknown, relay, remote MTA errors (sisimai: onhold)
  "00010256": 40, "000D06B5": 40, // too many recipients, no proxy for recipient (systemerror)
  "00120270": 40, // too many hops (networkerror)
  "00050311": 50, "000502CC": 50, // conversion to Internet format failed (contenterror)
  "000B0981": 50, // server does not support AUTH (securityerror)
};
const EXCHANGE_RE = /MSEXCH:[\s\S]{0,200}?\(([0-9A-F]{8})\)/;

// NetEase (163.com, 126.com, yeah.net) and the Coremail servers it runs put a code after the reply: "421 HL:REP",
// "451 DT:SPM ,please try again". The meanings are NetEase's published bounce-code table (退信代码说明), as
// reproduced on biecuoliao.com and 51yue.net. A code for a rate or a count per connection is a deferral (70) under
// 4xx; its permanent form is a refusal of our traffic (50), as classify.ts reads a permanent rate limit.
const NETEASE: Record<string, BounceClass | "rate"> = {
  "HL:REP": 51, "HL:IHU": 51, "DT:RBL": 51, "MI:RBL": 51, // our IP held back: unknown recipients, spam, an RBL listing
  "HL:MEP": 50, "HL:IPB": 50, "WM:BLI": 50, "WM:BLU": 50, "HL:ICC": 50, // forged sender domains, not allowed, connections
  "MI:SPF": 50, "MI:DMA": 50, "DT:SUM": 50, // SPF, DMARC, envelope and header senders differ
  "DT:SPM": 52, "DT:SUR": 52, // spam content, a URL on SURBL
  "HL:IFC": "rate", "MI:DMC": "rate", "RP:DRC": "rate", "MI:SFQ": "rate", "RP:QRC": "rate", "RP:TRC": "rate", "MI:STC": "rate",
};
const NETEASE_RE = /(?:\b([245])\d\d[ -](?:[245]\.\d{1,3}\.\d{1,3} )?)?\b(HL|MI|RP|DT|WM):([A-Z]{3})\b/;

// Sophos Email refuses with "550 5.7.1 XGEMAIL_0011 Command rejected": only the number says why (Sophos Central's
// published SMTP error codes, docs.sophos.com ManageYourProducts/EmailSecurity/SMTPErrorCodes).
const SOPHOS: Record<string, BounceClass> = {
  "0001": 50, "0002": 50, "0003": 50, "0006": 50, // DKIM, SPF, DMARC, the recipient's TLS policy
  "0004": 51, "0005": 51, // our IP on an RBL, our domain on a DBL
  "0008": 50, "0009": 50, // the organisation's or the user's block list
  "0011": 10, // the recipient does not exist in the protected domain
  "0012": 23, // the message is larger than allowed
  "0014": 50, "0015": 50, // the recipient's inbound rate limits, refused permanently
};
const SOPHOS_RE = /\bXGEMAIL_(\d{4})\b/;

// MTAs' own fixed sentences that say which failure it was, as sisimai's MTA modules read them (BSD-2):
const MTA_SENTENCES: readonly (readonly [RegExp, BounceClass])[] = [
  // Exchange 2000/2003: the sentence of diagnostic 000C05A6 (lib/sisimai/lhost/exchange2003.rb).
  [/The recipient name is not recognized/i, 10],
  // Trend Micro InterScan MSS: "Unable to deliver message to <x> (and other recipients in the same
  // domain). Please check if address is correct." (lib/sisimai/lhost/interscanmss.rb: userunknown).
  [/Please check if address is correct/i, 10],
];

// AOL's postmaster codes in its refusals of our IP (its error pages, as Word to the Wise quotes them, "AOL updates spam
// filtering", 2013-05): CON:B1, a spike in unfavourable statistics; RLY:B1-B3, HVU:B1 and RTR:BB, the IP blocked.
const AOL_IP_BLOCK_RE = /\b(?:CON|RLY|HVU):B\d\b|\bRTR:BB\b/;

/** A rate or a count per connection is a deferral (70) under 4xx; its permanent form (or no reply code) refuses our
 *  traffic (50), as classify.ts reads a permanent rate limit. */
const rated = (replyClass: string | undefined): BounceClass => (replyClass === "4" ? 70 : 50);

/** The class a numbered provider refusal or an MTA's fixed sentence carries, or undefined. */
export function classFromProviderCode(text: string): BounceClass | undefined {
  const m = ORANGE_RE.exec(text);
  const orange = m ? ORANGE[m[1] ?? m[2] ?? ""] : undefined;
  if (m) return orange !== "rate" ? orange : rated(/^\s*([45])\d\d\b/.exec(text)?.[1]);
  const n = NETEASE_RE.exec(text);
  const netease = n ? NETEASE[`${n[2]}:${n[3]}`] : undefined;
  if (netease !== undefined) return netease !== "rate" ? netease : rated(n![1]);
  if (AOL_IP_BLOCK_RE.test(text)) return 51;
  const sophos = SOPHOS[SOPHOS_RE.exec(text)?.[1] ?? ""];
  if (sophos !== undefined) return sophos;
  const x = EXCHANGE_RE.exec(text);
  if (x && EXCHANGE[x[1]!] !== undefined) return EXCHANGE[x[1]!];
  return MTA_SENTENCES.find(([re]) => re.test(text))?.[1];
}
