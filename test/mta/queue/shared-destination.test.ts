// A zone's nodes share a destination's connections: when another node publishes that it has them
// all, the rows this node claimed and has not started are handed back due at once, not left to
// wait out their lease (before, two nodes on one PostgreSQL stalled for the 30 s lease this way:
// bench/nodes.ts, 44 msg/s where it had measured 300). Real SMTP to a local sink; the other node
// is its published state in the store, written as a node writes it.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { Principal } from "../../../src/core/model.ts";

let t: TestApp | null = null;
const sinks: Sink[] = [];
afterEach(async () => { await t?.close(); for (const s of sinks.splice(0)) await s.close(); t = null; }, 60_000);

async function until(check: () => Promise<boolean> | boolean, ms: number) {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(50)) if (await check()) return;
  throw new Error("condition not met in time");
}

describe("a destination shared with another node", () => {
  test("its rows waiting here are handed back due now when the other node takes the connections, and go out when room comes back", async () => {
    const sink = await startSink({ delayMs: 1_500 });
    sinks.push(sink);
    // A lease far longer than the test: rows left to it would not come back in time.
    t = await makeTestApp({ toml: `max_connections_per_host = 2\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`, serverToml: `claim_lease = "10m"` });
    const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
    const N = 6;
    for (let i = 0; i < N; i++) {
      await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" }, envelopes: [{ to: [{ email: `r${i}@dest.test` }], subject: "s", text: "t" }] });
    }
    const zone = t.app.store.zone("us");
    const name = `127.0.0.1:${sink.port}`;
    const other = (at: number) => zone.publishDestinations("node-other", at, [{ name, provider: null, keys: ["dest.test"], inFlight: 2,
      concurrency: 2, maxConcurrency: 2, suspendedUntil: null, throttledUntil: null, lastThrottle: null, lastThrottleAt: null }]);
    await t.app.mta.scheduler.start();
    // Two attempts under way (the sink answers late) and two more claimed behind them.
    await until(async () => (await zone.claimsHeld(Date.now())).reduce((n, c) => n + c.recipients, 0) === 4, 10_000);
    await other(Date.now());
    // The two attempts end; with the other node holding both connections the two waiting are handed back.
    await sink.waitFor(2, 10_000);
    await until(async () => (await zone.claimsHeld(Date.now())).length === 0, 10_000);
    expect(sink.messages.length).toBe(2);
    // The other node's state goes stale (it stopped): the rest is delivered, well within the lease.
    await other(Date.now() - 60_000);
    await sink.waitFor(N, 20_000);
    expect(new Set(sink.messages.flatMap((m) => m.to)).size).toBe(N);
  }, 60_000);
});
