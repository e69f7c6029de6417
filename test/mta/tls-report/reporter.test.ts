// The daily report across restarts: the last day reported is a cursor in the zone's file, so a
// reporter started again after midnight sends the day it missed, once; a later start does not
// send it again. Real SQLite files (closed and reopened), real DNS (dnsmasq) for _smtp._tls; the
// clock is injected; reports by mail are collected where they would be queued.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSystemResolver } from "../../../src/dns.ts";
import { createLogger } from "../../../src/log.ts";
import { dayOf } from "../../../src/mta/tls-report/report.ts";
import { createTlsReporter } from "../../../src/mta/tls-report/reporter.ts";
import { createTlsSessionCounter } from "../../../src/mta/tls-report/sessions.ts";
import { storedLastDay } from "../../../src/mta/tls-report/setup.ts";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { type DnsmasqServer, startDnsmasq } from "../../helpers/dnsmasq.ts";

const dir = mkdtempSync(join(tmpdir(), "postern-tlsrpt-restart-"));
let dns: DnsmasqServer;
beforeAll(async () => { dns = await startDnsmasq([{ type: "TXT", name: "_smtp._tls.a.test", strings: ["v=TLSRPTv1; rua=mailto:rua@a.test"] }]); });
afterAll(async () => { await dns?.stop(); rmSync(dir, { recursive: true, force: true }); });

const D = dayOf(Date.UTC(2026, 10, 27, 12));
const sent: { to: string; day: number }[] = [];

/** One process's life: opens the store, runs `fn` with a reporter whose clock reads `at`, closes the store. */
async function life(at: number, fn: (r: ReturnType<typeof createTlsReporter>, s: ReturnType<typeof openSqliteStore>) => Promise<void>) {
  const store = openSqliteStore(join(dir, "data"), ["us"]);
  const now = () => at;
  const counter = createTlsSessionCounter({ store, now });
  const reporter = createTlsReporter({ store, now, counter, resolver: createSystemResolver([dns.server]), log: createLogger({ level: "silent" }),
    submitter: "mta.test", from: async () => "tls-reports@example.com", lastDay: storedLastDay(store.zone("us")),
    async submit(raw, _from, to) { sent.push({ to, day: Number(/Report-ID: <(\d+)\./.exec(new TextDecoder().decode(raw))![1]) }); } });
  try { await fn(reporter, store); } finally { await counter.flush(); await store.close(); }
}

test("a reporter started after midnight sends the day it missed once; a second restart does not send it again", async () => {
  await life(D * 86_400_000 + 3_600_000, async (r, store) => {
    await r.catchUp(); // first start ever: nothing before it is reported
    await store.control.addTlsSessions(D, [{ policyDomain: "a.test", policyType: "sts", mxHost: "mx.a.test", result: "success", count: 2 }]);
  });
  expect(sent).toEqual([]);
  // Down over midnight: the hourly check of day D's process never saw D end.
  await life((D + 1) * 86_400_000 + 300_000, (r) => r.catchUp());
  expect(sent).toEqual([{ to: "rua@a.test", day: D }]);
  await life((D + 1) * 86_400_000 + 600_000, (r) => r.catchUp());
  await life((D + 1) * 86_400_000 + 900_000, async (r) => { r.start(); await r.catchUp(); r.stop(); });
  expect(sent).toEqual([{ to: "rua@a.test", day: D }]);
}, 30_000);

test("several days missed while down are each sent once, in order", async () => {
  sent.length = 0;
  const later = D + 10;
  await life((later - 3) * 86_400_000, async (_r, store) => {
    for (const day of [later - 3, later - 2, later - 1]) await store.control.addTlsSessions(day, [{ policyDomain: "a.test", policyType: "sts", mxHost: "mx.a.test", result: "success", count: 1 }]);
  });
  await life(later * 86_400_000 + 60_000, (r) => r.catchUp());
  // Day D+1 .. later-4 had no sessions (nothing to send); the three days that had are sent in order.
  expect(sent).toEqual([{ to: "rua@a.test", day: later - 3 }, { to: "rua@a.test", day: later - 2 }, { to: "rua@a.test", day: later - 1 }]);
  await life(later * 86_400_000 + 120_000, (r) => r.catchUp());
  expect(sent).toHaveLength(3);
}, 30_000);
