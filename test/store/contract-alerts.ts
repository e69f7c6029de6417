// The store contract for alerts: configured rules (ids assigned by the engine, never reused) and
// incidents, one per (rule, subject), visible to every node of one database.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";
import type { AlertIncident } from "../../src/core/alerts-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

export function alertsContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("alert rules: inserted with ascending ids, updated, listed and deleted with their incidents", async () => {
    const a = await open();
    const c = a.control;
    const base = { metric: "hard_bounce_rate", threshold: 0.02, window: 3_600_000, minVolume: 50, domain: "a.test", source: "native",
      extra: { name: "x" }, createdAt: NOW, updatedAt: NOW };
    const r1 = await c.insertAlertRule(base);
    const r2 = await c.insertAlertRule({ ...base, metric: "queue_age", threshold: 7200, domain: null, extra: {} });
    expect(r2.id).toBeGreaterThan(r1.id);
    expect(r1).toEqual({ ...base, id: r1.id });
    expect(await c.updateAlertRule({ ...r1, threshold: 0.5, extra: { muted: true }, updatedAt: NOW + 5 })).toBe(true);
    expect(await c.updateAlertRule({ ...r1, id: 99_999 })).toBe(false);
    const inc: AlertIncident = { id: "al1", ruleId: String(r1.id), subject: "a.test", state: "firing", value: 0.1, threshold: 0.5,
      firedAt: NOW, notifiedAt: NOW, clearSince: null, resolvedAt: null, updatedAt: NOW };
    expect(await c.putAlertIncident(inc, null)).toBe(true);
    const b = openPeer ? await openPeer(a) : a;
    expect((await b.control.listAlertRules()).map((r) => [r.id, r.threshold, r.extra])).toEqual([[r1.id, 0.5, { muted: true }], [r2.id, 7200, {}]]);
    expect(await b.control.listAlertIncidents({ open: true })).toEqual([inc]);
    expect(await c.deleteAlertRule(r1.id)).toBe(true);
    expect(await c.deleteAlertRule(r1.id)).toBe(false);
    expect(await c.listAlertIncidents({})).toEqual([]);
    const r3 = await c.insertAlertRule(base);
    expect(r3.id).toBeGreaterThan(r2.id);
    if (b !== a) await b.close();
    await a.close();
  });

  test("alert incidents: one per (rule, subject), written only over the one read; open ones are those not resolved", async () => {
    const store = await open();
    const c = store.control;
    const inc = (ruleId: string, subject: string, at: number): AlertIncident => ({ id: `${ruleId}-${subject}-${at}`, ruleId, subject, state: "firing",
      value: 0.07, threshold: 0.05, firedAt: at, notifiedAt: at, clearSince: null, resolvedAt: null, updatedAt: at });
    expect(await c.putAlertIncident(inc("hard_bounce_rate", "a.test", NOW), null)).toBe(true);
    expect(await c.putAlertIncident(inc("hard_bounce_rate", "b.test", NOW + 1), null)).toBe(true);
    // A second first firing of the same pair (another node's) does not overwrite it.
    expect(await c.putAlertIncident(inc("hard_bounce_rate", "a.test", NOW + 2), null)).toBe(false);
    const resolved = { ...inc("hard_bounce_rate", "a.test", NOW), state: "resolved" as const, clearSince: NOW + 10, resolvedAt: NOW + 20, updatedAt: NOW + 20 };
    expect(await c.putAlertIncident(resolved, NOW)).toBe(true);
    // A step from the row as it was before that write is refused.
    expect(await c.putAlertIncident({ ...resolved, state: "reminder", updatedAt: NOW + 30 }, NOW)).toBe(false);
    expect((await c.listAlertIncidents({})).map((i) => [i.subject, i.state, i.resolvedAt])).toEqual([["b.test", "firing", null], ["a.test", "resolved", NOW + 20]]);
    expect((await c.listAlertIncidents({ open: true })).map((i) => i.subject)).toEqual(["b.test"]);
    await store.close();
  });

  test("alert incidents written by two nodes at once: exactly one write lands", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const inc: AlertIncident = { id: "x", ruleId: "block_rate", subject: "c.test", state: "firing", value: 0.2, threshold: 0.1, firedAt: NOW,
      notifiedAt: NOW, clearSince: null, resolvedAt: null, updatedAt: NOW };
    const first = await Promise.all([a, b, a, b].map((s, k) => s.control.putAlertIncident({ ...inc, id: `n${k}` }, null)));
    expect(first.filter(Boolean)).toHaveLength(1);
    const next = await Promise.all([a, b].map((s, k) => s.control.putAlertIncident({ ...inc, id: `n${first.indexOf(true)}`, state: "reminder",
      updatedAt: NOW + 1 + k }, NOW)));
    expect(next.filter(Boolean)).toHaveLength(1);
    if (b !== a) await b.close();
    await a.close();
  });
}
