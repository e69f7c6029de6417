// createAlerts as the server runs it: started, it reads the rules by itself a moment later and then
// every interval, and posts what fires to [alerts] webhook (a real local receiver), with the
// incidents in a real store. The readings' sources here are plain values (their real sources are
// exercised in readings.test.ts and service.test.ts): one certificate with a day left.
import { afterAll, expect, test } from "bun:test";
import { createAlerts } from "../../src/alerts/index.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createMockResolver } from "../../src/dns.ts";
import { createLogger } from "../../src/log.ts";

const posted: any[] = [];
const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => { posted.push(await req.json()); return new Response("ok"); } });
const store = await openSqliteStore(":memory:", ["us"]);
afterAll(async () => { receiver.stop(true); await store.close(); });

test("started, the alerts read the rules by themselves and post what fires; stopped, they stop", async () => {
  const alerts = createAlerts({ config: { alerts: { webhook: `http://127.0.0.1:${receiver.port}/`, email: [] }, webhooks: { allow_private: true, timeout: 2000 } },
    store: store.control, resolver: createMockResolver({}), now: () => Date.now(), log: createLogger({ level: "silent" }), mtaHostname: "mta.test",
    signingKey: "k", domains: async () => [], send: async () => ({}), stopping: () => false,
    statFacts: async () => [], oldestQueuedAt: async () => null, usage: async () => [],
    certificate: () => ({ subject: "mail.example.test", notAfter: Date.now() + 86_400_000 }) }, { intervalMs: 100 });
  alerts.start();
  for (let i = 0; i < 100 && !posted.length; i++) await Bun.sleep(20);
  await alerts.stop();
  expect(posted.map((p) => [p.alert.rule, p.alert.state, p.alert.subject])).toEqual([["certificate", "firing", "mail.example.test"]]);
  expect((await store.control.listAlertIncidents({ open: true })).map((i) => i.ruleId)).toEqual(["certificate"]);
});

test("on a started server a hard-bounce stream is noticed within seconds of its bounces, not at the next interval", async () => {
  const { makeTestApp } = await import("../helpers/app.ts");
  const { startSink } = await import("../helpers/smtp-sink.ts");
  const sink = await startSink({ script: (rcpt) => (rcpt.startsWith("bad") ? { code: 550, message: "5.1.1 User unknown" } : null) });
  // Rules read every 16 s instead of every minute: the start's reading comes after 1.3 s instead of 5,
  // and a recorded bounce brings one within 4 s instead of 15.
  const t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = true\n[alerts]\nwebhook = "http://127.0.0.1:${receiver.port}/server"\ninterval = "16s"\n` });
  try {
    await t.app.start();
    const up = Date.now();
    // Past the evaluation the start makes (1.3 s): only the recorder's nudge can be quicker than the next interval.
    await Bun.sleep(2000);
    const principal = (await t.app.access.authenticate(t.domainKey))!;
    for (let i = 0; i < 100; i++) {
      await t.app.sender.send(principal, { domain: "example.com", source: "native", from: { email: "a@example.com" },
        envelopes: [{ to: [{ email: `${i < 10 ? "bad" : "ok"}${i}@dest.test` }], subject: "s", text: "t" }] });
    }
    const started = Date.now();
    const mine = () => posted.filter((p) => p.alert.rule === "hard_bounce_rate" && p.alert.subject === "example.com");
    while (!mine().length && Date.now() - started < 45_000) await Bun.sleep(100);
    expect(mine().map((p) => p.alert.state)).toEqual(["firing"]);
    expect(Date.now() - up).toBeLessThan(15_000); // before the interval's next reading (16 s after the start)
  } finally {
    await t.close();
    await sink.close();
  }
}, 90_000);

test("a source that fails leaves its open alerts as they were: they resolve only on readings back under", async () => {
  const { statKeyOf } = await import("../../src/core/stats/stat-key.ts");
  const fact = (type: "accepted" | "failed", i: number) => ({ at: 1, domain: "flaky.test", tags: [], rcptDomain: "d.test", campaign: "", template: "", ipPool: "",
    n: 1, bytes: 0, key: statKeyOf({ id: `e${i}`, type, messageId: `m${i}`, recipient: `r${i}@d.test`, domain: "flaky.test", timestamp: 1, tags: [], metadata: {},
      ...(type === "failed" ? { severity: "permanent", code: 550, description: "5.1.1 User unknown", attempt: 1 } : {}) } as never) });
  let facts: () => unknown[] = () => [...Array.from({ length: 100 }, (_, i) => fact("accepted", i)), ...Array.from({ length: 9 }, (_, i) => fact("failed", i))];
  let clock = Date.now();
  const own = await openSqliteStore(":memory:", ["us"]);
  const alerts = createAlerts({ config: { alerts: { webhook: "", email: [] }, webhooks: { allow_private: true, timeout: 2000 } }, store: own.control,
    resolver: createMockResolver({}), now: () => clock, log: createLogger({ level: "silent" }), mtaHostname: "mta.test", signingKey: "k",
    domains: async () => [], send: async () => ({}), stopping: () => false, statFacts: async () => facts() as never, oldestQueuedAt: async () => null,
    usage: async () => [], certificate: () => null });
  const states = async () => (await alerts.tick()).filter((n) => n.subject === "flaky.test").map((n) => `${n.rule}:${n.state}`);
  expect(await states()).toEqual(["hard_bounce_rate:firing"]);
  facts = () => { throw new Error("store unreachable"); };
  clock += 2 * 3_600_000;
  expect(await states()).toEqual([]);
  expect((await own.control.listAlertIncidents({ open: true })).map((i) => [i.ruleId, i.clearSince])).toEqual([["hard_bounce_rate", null]]);
  facts = () => [];
  expect(await states()).toEqual([]);
  clock += 3_600_000;
  expect(await states()).toEqual(["hard_bounce_rate:resolved"]);
  await own.close();
});
