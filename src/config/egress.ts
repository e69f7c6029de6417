// [mta.egress.NAME] and [mta.pools.NAME]: sub-tables of [mta], read and checked here so load.ts
// stays one loop over plain keys. Problems name the file, the key and what is wrong.
import { isIP } from "node:net";
import { parseWarmupStart } from "../core/egress/warmup-schedule.ts";
import type { EgressSourceConfig } from "../core/egress/directory.ts";

type Raw = Record<string, unknown>;
export const EGRESS_KEYS = ["source_address", "ehlo", "warmup_start"] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const isTable = (v: unknown): v is Raw => Boolean(v) && typeof v === "object" && !Array.isArray(v);

/** True when `key` of [mta] is one of the sub-tables read here (then `value` has been taken). */
export function applyEgressTable(mta: Raw, key: string, value: unknown, where: string, problems: string[]): boolean {
  if (key !== "egress" && key !== "pools") return false;
  if (!isTable(value)) { problems.push(`${where}: mta.${key}: expected tables [mta.${key}.NAME]`); return true; }
  for (const [name, body] of Object.entries(value)) {
    const at = `${where}: mta.${key}.${name}`;
    if (!NAME.test(name)) { problems.push(`${at}: a name is letters, digits, _ . or - (at most 64)`); continue; }
    if (!isTable(body)) { problems.push(`${at}: expected a table`); continue; }
    if (key === "egress") readSource(mta, name, body, at, problems);
    else readPool(mta, name, body, at, problems);
  }
  return true;
}

function readSource(mta: Raw, name: string, body: Raw, at: string, problems: string[]) {
  const source: EgressSourceConfig = { source_address: "", ehlo: "", warmup_start: "" };
  for (const [k, v] of Object.entries(body)) {
    if (!(EGRESS_KEYS as readonly string[]).includes(k)) { problems.push(`${at}.${k}: unknown key`); continue; }
    if (typeof v !== "string") { problems.push(`${at}.${k}: expected a string, got ${JSON.stringify(v)}`); continue; }
    source[k as keyof EgressSourceConfig] = v;
  }
  if (source.source_address && !isIP(source.source_address)) problems.push(`${at}.source_address: expected an IPv4 or IPv6 address, got "${source.source_address}"`);
  if (source.ehlo && !/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(source.ehlo)) problems.push(`${at}.ehlo: expected a host name, got "${source.ehlo}"`);
  if (source.warmup_start && parseWarmupStart(source.warmup_start) === null) problems.push(`${at}.warmup_start: expected a date such as "2026-11-26" or "", got "${source.warmup_start}"`);
  (mta.egress as Record<string, EgressSourceConfig>)[name] = source;
}

function readPool(mta: Raw, name: string, body: Raw, at: string, problems: string[]) {
  for (const k of Object.keys(body)) if (k !== "sources") problems.push(`${at}.${k}: unknown key`);
  const sources = body.sources;
  if (!Array.isArray(sources) || sources.length === 0 || !sources.every((s) => typeof s === "string")) {
    problems.push(`${at}.sources: expected a non-empty array of [mta.egress] names`);
    return;
  }
  (mta.pools as Record<string, { sources: string[] }>)[name] = { sources: [...new Set(sources as string[])] };
}

/** Cross-checks once everything is read: pools name known sources, a source is in at most one pool, addresses are not shared. */
export function checkEgress(mta: { egress: Record<string, EgressSourceConfig>; pools: Record<string, { sources: string[] }> }, where: string, problems: string[]) {
  const owner = new Map<string, string>();
  for (const [pool, p] of Object.entries(mta.pools)) {
    for (const s of p.sources) {
      if (!mta.egress[s]) problems.push(`${where}: mta.pools.${pool}.sources: "${s}" is not an [mta.egress.${s}] source`);
      else if (owner.has(s)) problems.push(`${where}: mta.pools.${pool}.sources: "${s}" is already in pool "${owner.get(s)}" (an address belongs to at most one pool)`);
      else owner.set(s, pool);
    }
  }
  const byAddress = new Map<string, string>();
  for (const [name, s] of Object.entries(mta.egress)) {
    if (!s.source_address) continue;
    const other = byAddress.get(s.source_address);
    if (other) problems.push(`${where}: mta.egress.${name}.source_address: ${s.source_address} is already source "${other}" (an address belongs to at most one pool)`);
    else byAddress.set(s.source_address, name);
  }
}
