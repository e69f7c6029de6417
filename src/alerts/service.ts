// The alerts service: the rules (built-in and configured), readings every minute for the rate
// and gauge rules, observe() for what other parts report (doctor checks, blocklist listings,
// pending DKIM keys), the incident step for each (rule, subject), and the channels told of every
// firing, reminder and resolution. Incidents live in the store, so a restart neither fires an open
// alert again nor forgets it. One step at a time: ticks and observations never interleave.
import { randomBytes } from "node:crypto";
import type { AlertIncident, AlertStore } from "../core/alerts-port.ts";
import type { Logger } from "../log.ts";
import type { Recorded } from "../core/recorder.ts";
import { BUILT_IN_RULES, METRICS, coversSubject, isOver, ruleOf, type Rule } from "./rules.ts";
import { isOpen, step, type Observation } from "./incident.ts";
import { readRules, type AlertSources } from "./readings.ts";
import { noticeOf, type AlertChannel, type AlertNotice } from "./notice.ts";
import { incidentView } from "./rule-input.ts";
import { configuredRules } from "./configured.ts";

/**
 * What another part reports (the doctor's change feed, the blocklist watch, the DKIM lifecycle):
 * `rule` is an event metric (`check`, `blocklist`, `dkim_pending`); `firing` says whether it is
 * over now (absent: `value` is compared with each rule's threshold); `value` defaults to 1 when
 * firing, else 0; `at` defaults to now.
 */
export interface AlertObservation { rule: string; subject: string; value?: number; firing?: boolean; at?: number }

export interface AlertServiceDeps {
  store: AlertStore;
  sources: AlertSources;
  channels: AlertChannel[];
  now: () => number;
  log: Logger;
  newId?: () => string;
  /**
   * How often the rules are read (default a minute). The first reading comes a twelfth of it after
   * the start and a recorded bounce brings one at most every quarter of it (5 s and 15 s at most).
   */
  intervalMs?: number;
}

const key = (ruleId: string, subject: string) => `${ruleId}\n${subject}`;

export function createAlertService(deps: AlertServiceDeps) {
  const newId = deps.newId ?? (() => `al_${randomBytes(8).toString("hex")}`);
  let chain: Promise<unknown> = Promise.resolve();
  const pending = new Set<Promise<void>>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let first: ReturnType<typeof setTimeout> | null = null;
  let nudged: ReturnType<typeof setTimeout> | null = null;
  let lastRun = 0;
  const intervalMs = deps.intervalMs ?? 60_000;
  const firstMs = Math.min(5000, intervalMs / 12);
  const nudgeGapMs = Math.min(15_000, intervalMs / 4);

  /** One evaluation in the background (the timer's and the recorder's). */
  const run = () => {
    lastRun = performance.now();
    void serial(tick).catch((e) => deps.log.error("alert evaluation failed", { error: String(e) }));
  };

  /** Runs `fn` after every step queued before it. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => {});
    return next;
  };

  async function rules(): Promise<Rule[]> {
    const configured = (await deps.store.listAlertRules()).map(ruleOf).filter((r): r is Rule => r !== null);
    return [...BUILT_IN_RULES, ...configured];
  }

  function tell(notice: AlertNotice, rule: Rule) {
    if (rule.muted) return;
    for (const channel of deps.channels) {
      const p = channel.deliver(notice, rule).catch((e) => deps.log.warn("alert channel failed", { error: String(e) }));
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
  }

  /** Steps one (rule, subject) and stores and tells what changed; returns the notice sent, if any. */
  async function apply(rule: Rule, subject: string, obs: Observation, current: AlertIncident | null, now: number): Promise<AlertNotice | null> {
    const { incident, notify } = step(current, { ruleId: rule.id, subject }, obs, now, newId);
    if (!incident || incident === current) return null;
    const changed = notify !== null || !current || incident.value !== current.value || incident.clearSince !== current.clearSince
      || incident.threshold !== current.threshold;
    // Written only over what was read: when another node stepped it first, that node notifies.
    if (changed && !(await deps.store.putAlertIncident(incident, current?.updatedAt ?? null))) return null;
    if (!notify) return null;
    const notice = noticeOf(incident, rule, notify, now);
    deps.log.info("alert", { ...notice });
    tell(notice, rule);
    return notice;
  }

  async function incidentsByKey() {
    return new Map((await deps.store.listAlertIncidents({})).map((i) => [key(i.ruleId, i.subject), i]));
  }

  /** One evaluation: every rate and gauge rule read now; open incidents without a reading step on what they last saw. */
  async function tick(): Promise<AlertNotice[]> {
    const now = deps.now();
    const all = await rules();
    // A rule whose source failed is not read now: its open incidents wait rather than count as under.
    const unread = new Set<string>();
    const readings = await readRules(all, deps.sources, now, (rule, e) => {
      unread.add(rule.id);
      deps.log.warn("alert rule not read", { rule: rule.id, error: String(e) });
    });
    const incidents = await incidentsByKey();
    const out: AlertNotice[] = [];
    const seen = new Set<string>();
    for (const r of readings) {
      seen.add(key(r.rule.id, r.subject));
      const n = await apply(r.rule, r.subject, { firing: r.firing, value: r.value, threshold: r.rule.threshold }, incidents.get(key(r.rule.id, r.subject)) ?? null, now);
      if (n) out.push(n);
    }
    const byId = new Map(all.map((r) => [r.id, r]));
    for (const inc of incidents.values()) {
      const rule = byId.get(inc.ruleId);
      if (!rule || !isOpen(inc) || unread.has(rule.id) || seen.has(key(inc.ruleId, inc.subject))) continue;
      // An event rule stays as it was last told; a rate or gauge with no reading now (no mail in the window) is under.
      const event = METRICS[rule.metric].kind === "event";
      const obs = event ? { firing: inc.clearSince === null, value: inc.value, threshold: rule.threshold } : { firing: false, value: 0, threshold: rule.threshold };
      const n = await apply(rule, inc.subject, obs, inc, now);
      if (n) out.push(n);
    }
    return out;
  }

  async function observe(o: AlertObservation): Promise<AlertNotice[]> {
    const now = o.at ?? deps.now();
    const incidents = await incidentsByKey();
    const out: AlertNotice[] = [];
    for (const rule of (await rules()).filter((r) => r.metric === o.rule && coversSubject(r, o.subject))) {
      const value = o.value ?? (o.firing ? 1 : 0);
      const firing = o.firing ?? isOver(rule, value);
      // A reported event's end (delisted, check ok again) is a fact, not a dip: it resolves at once.
      const resolveAfterMs = o.firing === false && METRICS[rule.metric].kind === "event" ? 0 : undefined;
      const n = await apply(rule, o.subject, { firing, value, threshold: rule.threshold, resolveAfterMs }, incidents.get(key(rule.id, o.subject)) ?? null, now);
      if (n) out.push(n);
    }
    return out;
  }

  return {
    rules,
    /** Reads every rule now (the timer calls it every interval); the notices sent. */
    tick: () => serial(tick),
    /** Reports one observation of an event rule (see AlertObservation); the notices sent. */
    observe: (o: AlertObservation) => serial(() => observe(o)),
    /** Incidents newest first (`open`: firing or reminded, not resolved), each with its rule's name. */
    async incidents(open: boolean) {
      const names = new Map((await rules()).map((r) => [r.id, r.name]));
      return (await deps.store.listAlertIncidents({ open })).map((i) => incidentView(i, names.get(i.ruleId)));
    },
    /** Resolves when every notification handed to a channel so far is done. */
    async settled() { while (pending.size) await Promise.all([...pending]); },
    /**
     * A bounce or complaint was recorded (the recorder's subscriber, one line in app.ts): once
     * started, the rules are read again within seconds rather than at the next minute, at most once
     * every 15 s (a quarter of the interval), so a bad stream is noticed while it runs and a busy one
     * costs no more reads.
     */
    recorded(r: Recorded) {
      if (!timer || nudged || !r.events.some((e) => (e.type === "failed" && e.severity !== "temporary") || e.type === "complained")) return;
      nudged = setTimeout(() => { nudged = null; run(); }, Math.max(Math.min(2000, nudgeGapMs), lastRun + nudgeGapMs - performance.now()));
      nudged.unref?.();
    },
    /** Reads the rules a few seconds after the start (a restarted server looks at once), then every interval. */
    start() {
      if (timer) return;
      first = setTimeout(run, firstMs);
      timer = setInterval(run, intervalMs);
      first.unref?.();
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      if (nudged) clearTimeout(nudged);
      timer = null;
      await chain;
      await Promise.race([Promise.all([...pending]), Bun.sleep(2000)]);
    },
    /** The configured rules, as stored. */
    configured: () => deps.store.listAlertRules(),
    ...configuredRules(deps.store, deps.now),
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
