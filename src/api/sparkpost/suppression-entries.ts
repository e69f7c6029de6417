// SparkPost suppression entries over postern's lists: one entry per (recipient, type) where type is
// transactional / non_transactional (a postern row with scope null covers both). Bounces,
// complaints and unsubscribes show as entries (whitelists have no SparkPost form); an address on
// several lists or domains shows once per type, the strongest source first.
import type { SurfaceDeps } from "../deps.ts";

type Suppression = Awaited<ReturnType<SurfaceDeps["suppressions"]["list"]>>[number];

export const SP_TYPES = ["transactional", "non_transactional"] as const;
export type SpType = (typeof SP_TYPES)[number];

/** Native lists shown here, strongest first (it decides `source` when an address is on several). */
export const NATIVE_TYPES = ["complaints", "unsubscribes", "bounces"] as const;
const SCAN_BATCH = 1000;

export interface SpEntry {
  recipient: string;
  type: SpType;
  source: string;
  description: string;
  created: string;
  updated: string;
  transactional: boolean;
  non_transactional: boolean;
}

function sourceOf(s: Suppression): string {
  if (s.type === "bounces") return "Bounce Rule";
  if (s.type === "complaints") return "Spam Complaint";
  if (/list[- ]unsubscribe/i.test(s.reason)) return "List Unsubscribe";
  if (/\b(link|click)/i.test(s.reason)) return "Unsubscribe Link";
  return "Manually Added";
}

export const scopesOf = (scope: string | null): SpType[] =>
  scope === "transactional" || scope === "non_transactional" ? [scope] : [...SP_TYPES];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Entries of one address's rows (from any lists and domains), one per type, strongest source first. */
export function entriesOf(rows: Suppression[]): SpEntry[] {
  const ranked = rows.filter((r) => (NATIVE_TYPES as readonly string[]).includes(r.type))
    .sort((a, b) => NATIVE_TYPES.indexOf(a.type as never) - NATIVE_TYPES.indexOf(b.type as never));
  const out = new Map<SpType, SpEntry>();
  for (const r of ranked) {
    for (const type of scopesOf(r.scope)) {
      if (out.has(type)) continue;
      out.set(type, { recipient: r.address, type, source: sourceOf(r), description: r.reason, created: iso(r.createdAt),
        updated: iso(r.createdAt), transactional: type === "transactional", non_transactional: type === "non_transactional" });
    }
  }
  return SP_TYPES.flatMap((t) => (out.has(t) ? [out.get(t)!] : []));
}

/** Rows of every domain in `domains`, one address at a time in address order, after `after`. */
export async function* scanAddresses(list: SurfaceDeps["suppressions"]["list"], domains: string[], after?: string): AsyncGenerator<Suppression[]> {
  const cursors = new Map(domains.map((d) => [d, after]));
  const buffers = new Map<string, Suppression[]>(domains.map((d) => [d, []]));
  const done = new Set<string>();
  const refill = async (d: string) => {
    const rows = await list(d, { after: cursors.get(d), limit: SCAN_BATCH });
    // A full batch may end inside one address's rows: keep that address for the next batch.
    const last = rows.length === SCAN_BATCH ? rows.at(-1)!.address : null;
    const kept = last && rows[0]!.address !== last ? rows.filter((r) => r.address !== last) : rows;
    if (!last) done.add(d);
    cursors.set(d, kept.at(-1)?.address ?? cursors.get(d));
    buffers.get(d)!.push(...kept);
  };
  for (;;) {
    for (const d of domains) if (!buffers.get(d)!.length && !done.has(d)) await refill(d);
    const heads = domains.map((d) => buffers.get(d)![0]?.address).filter((a): a is string => a !== undefined);
    if (!heads.length) return;
    const next = heads.reduce((a, b) => (b < a ? b : a));
    const rows: Suppression[] = [];
    for (const d of domains) {
      const buf = buffers.get(d)!;
      while (buf[0]?.address === next) rows.push(buf.shift()!);
    }
    yield rows;
  }
}
