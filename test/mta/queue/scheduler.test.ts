// Fair scheduling: a destination answering late holds at most its own share of the in-flight slots;
// mail for a healthy destination queued behind it is delivered at once.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { Principal } from "../../../src/core/model.ts";

let t: TestApp | null = null;
const sinks: Sink[] = [];
// Stopping waits for the slow attempts in flight (a few rounds of the slow MX).
afterEach(async () => { await t?.close(); for (const s of sinks.splice(0)) await s.close(); t = null; }, 60_000);

const SLOW = 450;
const HEALTHY = 20;

describe("scheduler", () => {
  test("a slow MX with many queued beside a healthy one: the healthy domain is delivered promptly", async () => {
    const slow = await startSink({ delayMs: 2_000 });
    const healthy = await startSink();
    sinks.push(slow, healthy);
    t = await makeTestApp({ toml: `max_connections_per_host = 2\n[mta.routes]\n"slow.test" = "127.0.0.1:${slow.port}"\n"*" = "127.0.0.1:${healthy.port}"\n` });
    const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
    const send = (email: string) => t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email }], subject: "s", text: "t" }] });
    // The slow domain's mail is due first, more of it than all the in-flight slots together.
    for (let i = 0; i < SLOW; i++) await send(`s${i}@slow.test`);
    for (let i = 0; i < HEALTHY; i++) await send(`h${i}@healthy.test`);
    await t.app.mta.scheduler.start();
    await healthy.waitFor(HEALTHY, 30_000);
    // Before fair claims, the first 100 slow rows took every slot until all of them were answered.
    // Now the slow domain holds at most twice its 2 connections' worth: 2 × 2 per claim, 8 at most.
    expect(slow.messages.length).toBeLessThanOrEqual(8);
    expect(t.app.mta.scheduler.stats().inFlight).toBeLessThanOrEqual(8);
  }, 60_000);
});
