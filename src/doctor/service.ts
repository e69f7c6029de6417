// The doctor: runs the registry's checks (now, or on `[doctor] interval` while the server runs),
// keeps the last result of every (check, subject), keeps the blocklist history through the store
// port, and tells its subscribers what changed between runs: a check's severity, or a blocklist
// entry to or from `listed` (webhook events, alerts). Subscribers are registered once in app.ts.
import type { BlocklistEntry, BlocklistStore } from "../core/blocklist-port.ts";
import { createSubscribers } from "../core/subscribers.ts";
import { mergeBlocklist, type BlocklistChange } from "./history.ts";
import { runChecks } from "./runner.ts";
import { createSchedule } from "./schedule.ts";
import type { BlocklistAnswer, CheckResult, DoctorContext, DomainSubject, Severity } from "./types.ts";

export interface CheckChange { kind: "check"; id: string; subject: string; from: Severity; to: Severity; at: number }
export type DoctorChange = CheckChange | BlocklistChange;
/** Hears every change a run finds; called after the run's history is stored. */
export interface DoctorSubscriber { doctorChanged(change: DoctorChange): void | Promise<void> }

export interface DoctorDeps {
  now: () => number;
  /** A fresh context per run (probes and look-ups are not reused between runs). */
  context(): DoctorContext;
  /** Every sending domain with its bounce and tracking host names. */
  domains(): Promise<DomainSubject[]>;
  history: BlocklistStore;
  /** The configured zones: entries of zones no longer configured are not reported. */
  zones: { ip_zones: readonly string[]; domain_zones: readonly string[] };
  /** `[doctor] interval` in ms; 0: only on demand. */
  intervalMs: number;
  /** Delay of the scheduler's first run (default: the interval, at most 30 s). */
  firstRunMs?: number;
  log?: { error(msg: string, fields?: Record<string, unknown>): void; info?(msg: string, fields?: Record<string, unknown>): void };
}

export interface RunOptions {
  domain?: string; ids?: readonly string[];
  /** Which egress addresses the run looks at (a tenant's: those its mail leaves from); absent: every one. */
  seesAddress?: (address: string) => boolean;
}

/**
 * A run's context seeing only some egress addresses: its egress subjects (ptr, ipv6, address
 * blocklists, SPF) are those, and "this server's addresses" (tracking, bounce MX) lose the other
 * egress addresses, keeping the public and host addresses a customer's DNS points at.
 */
function scopeAddresses(ctx: DoctorContext, sees: (address: string) => boolean): DoctorContext {
  const egress = async () => (await ctx.egress()).filter((e) => sees(e.address));
  const serverAddresses = async () => {
    const hidden = new Set((await ctx.egress()).map((e) => e.address).filter((a) => !sees(a)));
    return new Set([...await ctx.serverAddresses()].filter((a) => !hidden.has(a)));
  };
  return { ...ctx, egress, serverAddresses };
}

/** One item of `postern blocklists --json` and `GET /blocklists`. */
export const blocklistItem = (e: BlocklistEntry) => ({ subject: e.subject, kind: e.kind, zone: e.zone, state: e.state, answer: e.answer, cause: e.cause,
  first_seen: new Date(e.firstSeen).toISOString(), last_seen: new Date(e.lastSeen).toISOString() });

/** The blocklist answers carried in blocklist verdicts' data. */
function answersOf(results: CheckResult[]): (BlocklistAnswer & { domain: string | null })[] {
  return results.filter((r) => r.id === "blocklist").flatMap((r) => {
    const d = r.data as { kind: "ip" | "domain"; domain?: string; entries?: Omit<BlocklistAnswer, "kind">[] };
    return (d.entries ?? []).map((e) => ({ ...e, kind: d.kind, domain: d.domain ?? null }));
  });
}

export function createDoctor(deps: DoctorDeps) {
  const subscribers = createSubscribers<DoctorSubscriber>();
  const last = new Map<string, CheckResult>();
  let lastRunAt: number | null = null;
  let stopped = false;

  async function tell(changes: DoctorChange[]) {
    for (const c of changes) {
      deps.log?.info?.(c.kind === "check" ? "doctor: a check changed" : "doctor: a blocklist entry changed", { ...c });
      const each: Promise<void>[] = [];
      subscribers.each((s) => { each.push(Promise.resolve().then(() => s.doctorChanged(c)).catch((e) => deps.log?.error("doctor subscriber failed", { error: String(e) }))); });
      await Promise.all(each);
    }
  }

  /** Compares with the previous result of each (check, subject) and stores the blocklist history. */
  async function record(results: CheckResult[], full: boolean): Promise<DoctorChange[]> {
    if (stopped) return []; // the store may be closing: a run that outlived stop() keeps nothing
    const at = deps.now();
    const changes: DoctorChange[] = [];
    const before = new Map(last);
    // A full run replaces what is kept, so a removed domain's results go; a partial one updates its part.
    if (full) last.clear();
    for (const r of results) {
      const key = `${r.id}\n${r.subject}`;
      const was = before.get(key)?.severity;
      // A first result is a change only when it is an error: that is news (and an alert); the
      // incident store keeps a restarted server from alerting twice. Blocklist listings are told
      // by the history below, first ones included.
      if (was === undefined ? r.severity === "error" && r.id !== "blocklist" : was !== r.severity) {
        changes.push({ kind: "check", id: r.id, subject: r.subject, from: was ?? "unknown", to: r.severity, at });
      }
      last.set(key, r);
    }
    const observed = answersOf(results);
    if (observed.length) {
      const merged = mergeBlocklist(await deps.history.listBlocklistEntries(), observed, at);
      await deps.history.saveBlocklistEntries(merged.entries);
      changes.push(...merged.changes);
    }
    if (full) lastRunAt = at;
    return changes;
  }

  // Runs may overlap (the scheduler's and a request's): their results are recorded one after the
  // other, so a listing seen by both is one change, not two.
  let recording: Promise<unknown> = Promise.resolve();
  async function run(opts: RunOptions = {}): Promise<CheckResult[]> {
    const all = await deps.domains();
    const domains = opts.domain ? all.filter((d) => d.name === opts.domain!.toLowerCase()) : all;
    const ctx = deps.context();
    const sees = opts.seesAddress;
    const scoped = sees ? scopeAddresses(ctx, sees) : ctx;
    const results = await runChecks(scoped, { domains, ids: opts.ids });
    const recorded = recording.then(() => record(results, !opts.domain && !opts.ids && !sees));
    recording = recorded.catch(() => {});
    await tell(await recorded);
    return results;
  }
  const schedule = createSchedule({ intervalMs: deps.intervalMs, firstRunMs: deps.firstRunMs, run: () => run(), log: deps.log });

  return {
    subscribe: subscribers.subscribe,
    /** The same feed as a plain function (alerts: `doctor.onChange((c) => …)`). */
    onChange: (fn: (change: DoctorChange) => void | Promise<void>) => subscribers.subscribe({ doctorChanged: fn }),
    /** Runs every check now (or D's and the machine's with `domain`; only `ids` when given). */
    run,
    /** The last result of each (check, subject) and when the last full run ended; null before one. */
    last: () => (lastRunAt === null ? null : { at: lastRunAt, checks: [...last.values()] }),
    /**
     * The blocklist history of the configured zones; with `refresh`, the blocklist checks run first.
     * `sees`: which listed host names the caller may see (a tenant: those of its own domains);
     * `seesAddress`: which egress addresses (a tenant: those its mail leaves from).
     */
    async blocklists(refresh: boolean, sees: (host: string) => boolean = () => true, seesAddress: (address: string) => boolean = () => true) {
      if (refresh) await run({ ids: ["blocklist"] });
      const zones = new Set([...deps.zones.ip_zones, ...deps.zones.domain_zones]);
      return (await deps.history.listBlocklistEntries()).filter((e) => zones.has(e.zone) && (e.kind === "ip" ? seesAddress(e.subject) : sees(e.subject))).map(blocklistItem);
    },
    /** Starts the schedule: a first run soon after start, then every interval (nothing with interval 0). */
    start: schedule.start,
    async stop() {
      await schedule.stop();
      stopped = true;
    },
  };
}

export type Doctor = ReturnType<typeof createDoctor>;
