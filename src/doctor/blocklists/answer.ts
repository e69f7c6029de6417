// What a blocklist's answer means (contract §13). 127.0.0.2–127.0.0.254 and 127.0.1.2–127.0.1.254
// list the name; 127.255.255.0/24 and 127.0.1.255 are the list talking about the query itself
// (Spamhaus: .252 a malformed query, .254 a public or unregistered resolver, .255 too many queries;
// SURBL-style 127.0.1.255 a refused resolver), never a listing. NXDOMAIN is clear; SERVFAIL and
// timeouts leave the answer unknown, with the cause (Mail-in-a-Box reported the .254 answer as a
// listing: mail-in-a-box#2288).
import type { Looked } from "../lookup.ts";
import type { BlocklistState } from "../types.ts";

export interface Classified { state: BlocklistState; answer: string; cause: string }

const REFUSALS: Record<string, string> = {
  "127.255.255.252": "the list says the query was malformed (127.255.255.252)",
  "127.255.255.254": "the list refused the resolver: public or unregistered resolvers are not answered (127.255.255.254); use your own resolver or a DQS key",
  "127.255.255.255": "the list's query quota is spent (127.255.255.255)",
  "127.0.1.255": "the list refused the resolver (127.0.1.255)",
};

const octets = (ip: string) => ip.split(".").map(Number);
const isListing = (ip: string) => {
  const [a, b, c, d] = octets(ip);
  return a === 127 && b === 0 && (c === 0 || c === 1) && d! >= 2 && d! <= 254;
};
const isRefusal = (ip: string) => ip === "127.0.1.255" || ip.startsWith("127.255.255.");

const FAILURES: Record<string, string> = { ESERVFAIL: "SERVFAIL", ETIMEOUT: "timeout: no answer in time", EREFUSED: "the DNS server refused the query",
  ECONNREFUSED: "the DNS server could not be reached" };

export function classify(found: Looked<string>): Classified {
  if (!found.ok) {
    if (found.missing) return { state: "clear", answer: "", cause: "" };
    return { state: "unknown", answer: "", cause: FAILURES[found.cause] ?? found.cause };
  }
  const answer = found.records.join(",");
  const refusal = found.records.find(isRefusal);
  if (refusal) return { state: "unknown", answer, cause: REFUSALS[refusal] ?? `the list refused the query (${refusal})` };
  if (found.records.some(isListing)) return { state: "listed", answer, cause: "" };
  return { state: "unknown", answer, cause: `an answer outside the listing ranges (${answer})` };
}
