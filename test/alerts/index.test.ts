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
