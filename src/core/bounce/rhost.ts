// What a big receiver's refusal means, by the receiver: sisimai's per-remote-host tables
// (data/sisimai-rhost.json, extracted by scripts/sisimai-rhost.py from rb-sisimai
// lib/sisimai/rhost/*.rb, BSD-2) read with the same keys sisimai uses - the host that answered or
// the recipient's domain picks the table; a table entry is a phrase, sometimes with the reply code,
// the enhanced status (Microsoft: a range of its third number) or the receiver's own error number
// (Cox "AUP#CXBL", GoDaddy "IB401", Spectrum "AUP#1000"). go-sisimai's additional receivers
// (Outlook.com, AOL, MessageLabs, Google Workspace relays) are in data/sisimai-rhost-more.ts. Pure.
import rhostData from "./data/sisimai-rhost.json" with { type: "json" };
import microsoftData from "./data/sisimai-rhost-microsoft.json" with { type: "json" };
import { MORE_HOSTS, MORE_RHOST, type MoreTable } from "./data/sisimai-rhost-more.ts";

type Table = { ErrorCodes?: Record<string, string> | [number, number, string][]; MessagesOf?: Record<string, unknown> };
const DATA = rhostData as unknown as { hosts: Record<string, string[]>; modules: Record<string, Table> };
/** go-sisimai's Microsoft table is the newer one (it took in rb-sisimai's Office 365 module's rules). */
const MODULES: Record<string, Table> = { ...DATA.modules, Microsoft: { MessagesOf: (microsoftData as unknown as Table).MessagesOf } };

export interface RhostInput {
  /** The host that answered (a DSN's Remote-MTA, the MX we talked to). */
  remoteHost?: string;
  /** The host that wrote the report (a DSN's Reporting-MTA): tried last, as go-sisimai's rhost.Name does. */
  reportingHost?: string;
  recipientDomain?: string;
  code?: number;
  enhancedCode?: string;
  text: string;
}

const HOSTS = [
  ...Object.entries(DATA.hosts).map(([name, suffixes]) => [name, [...suffixes, ...(MORE_HOSTS[name] ?? [])]] as const),
  ...Object.entries(MORE_RHOST).map(([name, t]) => [name, t.hosts] as const),
];

/** The table for this receiver, as sisimai's Rhost.find picks it (lib/sisimai/rhost.rb). */
function moduleFor(host: string, domain: string): string | undefined {
  if (!host && !domain) return undefined;
  return HOSTS.find(([, suffixes]) =>
    suffixes.some((s) => (host && host.endsWith(s)) || (domain && s.endsWith(domain))))?.[0];
}

/** The receiver's own error number, for the tables keyed by it. */
function byErrorNumber(name: string, table: Table, raw: string): string | undefined {
  const codes = table.ErrorCodes;
  if (!codes) return undefined;
  if (Array.isArray(codes)) { // Spectrum: [from, to (0: exactly from), reason]
    const n = Number(/AUP#[-A-Za-z]*(\d{4})/.exec(raw)?.[1] ?? 0);
    return codes.find(([from, to]) => n === from || (to !== 0 && n >= from && n <= to))?.[2];
  }
  const key = name === "GoDaddy" ? / (IB\d{3})/.exec(raw)?.[1] : /AUP#([0-9A-Z]+)/.exec(raw)?.[1];
  return key ? codes[key] : undefined;
}

/** Does one table entry match? Entries are a phrase, or tuples of codes and a phrase. */
function entryMatches(name: string, entry: unknown, x: { text: string; code: string; status: string }): boolean {
  if (typeof entry === "string") return x.text.includes(entry.toLowerCase());
  if (!Array.isArray(entry)) return false;
  const phrase = String(entry[entry.length - 1]).toLowerCase();
  if (!x.text.includes(phrase)) return false;
  if (name === "Google") { // [reply, status, phrase]: compared without their first digit, as sisimai does
    return x.code.length === 3 && x.status !== "" && String(entry[0]).endsWith(x.code.slice(1)) && String(entry[1]).endsWith(x.status.slice(2));
  }
  if (name === "Mimecast") return Number(entry[0]) === Number(x.code); // [reply, phrase]
  if (name === "Microsoft") { // [status, from, to, phrase]: exact status, or a prefix and a range of its third number
    const [status, from, to] = entry as [string, number, number];
    if (from === to) return x.status === status;
    const third = Number(x.status.split(".").pop());
    return x.status.startsWith(status) && third >= from && third <= to;
  }
  return false;
}

/** A go-sisimai table: phrases per reason, some read only on a temporary or a permanent failure. */
function fromMoreTable(t: MoreTable, input: RhostInput): string | undefined {
  const temporary = (input.code !== undefined ? input.code < 500 : input.enhancedCode?.startsWith("4")) ?? false;
  return Object.entries(t.messages).find(([reason, phrases]) => phrases.some((p) => input.text.includes(p)) &&
    !(t.temporaryOnly?.includes(reason) && !temporary) && !(t.permanentOnly?.includes(reason) && temporary))?.[0];
}

/** The sisimai reason a known receiver's table gives this refusal, or undefined. */
export function rhostReason(input: RhostInput): string | undefined {
  const host = (h?: string) => (h ?? "").toLowerCase().replace(/\.$/, "");
  const name = moduleFor(host(input.remoteHost), (input.recipientDomain ?? "").toLowerCase()) ?? moduleFor(host(input.reportingHost), "");
  if (name && MORE_RHOST[name]) return input.text ? fromMoreTable(MORE_RHOST[name]!, input) : undefined;
  const table = name ? MODULES[name] : undefined;
  if (!name || !table || !input.text) return undefined;
  const fromNumber = byErrorNumber(name, table, input.text);
  if (fromNumber) return fromNumber;
  const x = { text: input.text.toLowerCase(), code: input.code ? String(input.code) : "", status: input.enhancedCode ?? "" };
  for (const [reason, entries] of Object.entries(table.MessagesOf ?? {})) {
    const list = Array.isArray(entries) ? entries : [entries];
    if (list.some((e) => entryMatches(name, e, x))) return reason;
  }
  return undefined;
}
