// The egress sources (local addresses outbound SMTP binds to, with their EHLO names and warm-up
// start) and the pools that group them, as configured ([mta.egress.NAME], [mta.pools.NAME]). Pure:
// built once from the config; the MTA picks sources from it, the surfaces and the CLI list it.
import { hourOf, hourStartMs, hourlyCap, parseWarmupStart, warmupDay } from "./warmup-schedule.ts";
import { AppError } from "../errors.ts";

export interface EgressSourceConfig { source_address: string; ehlo: string; warmup_start: string }
export interface EgressConfig {
  egress: Readonly<Record<string, EgressSourceConfig>>;
  pools: Readonly<Record<string, { sources: readonly string[] }>>;
}

export interface EgressSource {
  name: string;
  /** The local address to bind to; null: the machine's default (the OS picks, as without egress config). */
  address: string | null;
  ehlo: string;
  /** UTC midnight of warm-up day 1, or null for a warm address. */
  warmupStart: number | null;
  /** The pool it belongs to (at most one), or null. */
  pool: string | null;
}

/** The pool used when neither the message nor its domain names one. */
export const DEFAULT_POOL = "default";

/** One line of `egress list` and of the vendors' listings. */
export interface EgressStatus {
  name: string; address: string; pool: string | null;
  warmup_day: number | null; hour_cap: number | null; hour_sent: number;
  /** A warming source at its cap: the top of the next UTC hour (ISO), when it sends again; else null. */
  waits_until: string | null;
}

export function createEgressDirectory(cfg: EgressConfig, hostname: string) {
  const inPool = new Map<string, string>();
  for (const [pool, p] of Object.entries(cfg.pools)) for (const s of p.sources) inPool.set(s, pool);
  const sources: EgressSource[] = Object.entries(cfg.egress).map(([name, s]) => ({
    name, address: s.source_address || null, ehlo: s.ehlo || hostname,
    warmupStart: s.warmup_start ? parseWarmupStart(s.warmup_start) : null, pool: inPool.get(name) ?? null,
  }));
  const byName = new Map(sources.map((s) => [s.name, s]));
  const pools = new Map<string, EgressSource[]>(Object.entries(cfg.pools).map(([pool, p]) => [pool, p.sources.map((n) => byName.get(n)!)]));
  if (!pools.has(DEFAULT_POOL)) {
    // No default pool configured: one source, the machine's default address (postern as it always sent).
    const machine: EgressSource = { name: byName.has("default") ? "default-address" : "default", address: null, ehlo: hostname, warmupStart: null, pool: DEFAULT_POOL };
    sources.unshift(machine);
    byName.set(machine.name, machine);
    pools.set(DEFAULT_POOL, [machine]);
  }
  return {
    sources: sources as readonly EgressSource[],
    poolNames: () => [...pools.keys()],
    pool: (name: string) => pools.get(name) ?? null,
    hasPool: (name: string) => pools.has(name),
    source: (name: string) => byName.get(name) ?? null,
    /** The configured source with this local address (Mailgun's o:sending-ip names one). */
    byAddress: (address: string) => sources.find((s) => s.address === address) ?? null,
    /** The pool a message goes out through: its own, else its domain's, else the default. */
    poolFor: (messagePool?: string | null, domainPool?: string | null) => messagePool || domainPool || DEFAULT_POOL,
    /** Each source now: its warm-up day and cap (null when warm) and `sent` this hour (by source name). */
    status(now: number, sent: Readonly<Record<string, number>>): EgressStatus[] {
      return sources.map((s) => {
        const day = warmupDay(s.warmupStart, now);
        const cap = hourlyCap(day);
        const hourSent = sent[s.name] ?? 0;
        const waits = cap !== null && hourSent >= cap ? new Date(hourStartMs(hourOf(now) + 1)).toISOString() : null;
        return { name: s.name, address: s.address ?? "0.0.0.0", pool: s.pool, warmup_day: day, hour_cap: cap, hour_sent: hourSent, waits_until: waits };
      });
    },
  };
}

export type EgressDirectory = ReturnType<typeof createEgressDirectory>;

/**
 * Refuses a send naming a pool or a sending address that is not configured (contract §9: a 400 in
 * each surface's shape), or, given `allowed`, outside those pools (a tenant's: core/tenant-pool.ts):
 * such a pool is as unknown as none, and the answer names only the allowed ones.
 */
export function checkEgressChoice(req: { ipPool?: string; sendingIp?: string }, egress: EgressDirectory, allowed?: ReadonlySet<string>): void {
  const usable = (pool: string | null) => pool !== null && egress.hasPool(pool) && (!allowed || allowed.has(pool));
  if (req.ipPool && !usable(req.ipPool)) {
    throw new AppError("invalid", `unknown ip pool "${req.ipPool}": the pools are ${egress.poolNames().filter(usable).join(", ")}`, { field: "ipPool", reason: "unknown_pool" });
  }
  const source = req.sendingIp ? egress.byAddress(req.sendingIp) : null;
  if (req.sendingIp && (!source || (allowed && !usable(source.pool)))) {
    throw new AppError("invalid", `unknown sending ip "${req.sendingIp}": not an address of [mta.egress]`, { field: "sendingIp", reason: "unknown_pool" });
  }
}
