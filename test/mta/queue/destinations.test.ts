// Destinations end to end, through real SMTP to local sinks: concurrency comes down when the MX
// answers 421 beyond its connection limit and all the mail is still delivered; a Yahoo [TSS04]
// reply suspends only that provider while another destination delivers; the state is published
// for `postern queue destinations`.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { Principal } from "../../../src/core/model.ts";

let t: TestApp | null = null;
const sinks: Sink[] = [];
afterEach(async () => { await t?.close(); for (const s of sinks.splice(0)) await s.close(); t = null; }, 60_000);

async function sender(app: TestApp) {
  const principal = (await app.app.access.authenticate(app.domainKey)) as Principal;
  return (email: string) => app.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: [{ to: [{ email }], subject: "s", text: "t" }] });
}

const statusOf = async (app: TestApp, email: string) => (await app.app.store.zone("us").listQueue(10_000)).find((r) => r.email === email)?.status ?? "done";

describe("destinations", () => {
  test("an MX allowing 4 connections that answers 421 beyond: concurrency comes down, every message is delivered", async () => {
    const sink = await startSink({ maxConnections: 4, delayMs: 150 });
    sinks.push(sink);
    t = await makeTestApp({ toml: `max_connections_per_host = 20\n[mta.routes]\n"busy.test" = "127.0.0.1:${sink.port}"\n` });
    const send = await sender(t);
    const N = 80;
    for (let i = 0; i < N; i++) await send(`r${i}@busy.test`);
    await t.app.mta.scheduler.start();
    await sink.waitFor(10, 30_000);
    // By now the 5th connection has been refused: the window came down to what the MX copes with.
    const [dest] = t.app.mta.scheduler.destinations().filter((d) => d.name === `127.0.0.1:${sink.port}`);
    expect(dest!.concurrency).toBeLessThanOrEqual(4);
    expect(dest!.maxConcurrency).toBe(20);
    expect(dest!.lastThrottle).toContain("421");
    sink.resetPeak();
    await sink.waitFor(N, 60_000);
    // At most one probe above the ceiling once it is known (the controller holds it 60 s).
    expect(sink.peakOpen).toBeLessThanOrEqual(6);
    expect(new Set(sink.messages.flatMap((m) => m.to)).size).toBe(N);
  }, 90_000);

  test("an MX that answers late: concurrency grows past 15 connections while deliveries succeed", async () => {
    const sink = await startSink({ delayMs: 300 });
    sinks.push(sink);
    t = await makeTestApp({ toml: `[mta.routes]\n"late.test" = "127.0.0.1:${sink.port}"\n` });
    const send = await sender(t);
    const N = 150;
    for (let i = 0; i < N; i++) await send(`r${i}@late.test`);
    await t.app.mta.scheduler.start();
    await sink.waitFor(N, 60_000);
    expect(sink.peakOpen).toBeGreaterThanOrEqual(15);
    expect(sink.peakOpen).toBeLessThanOrEqual(20);
    const d = t.app.mta.scheduler.destinations().find((x) => x.name === `127.0.0.1:${sink.port}`)!;
    expect([d.concurrency, d.maxConcurrency]).toEqual([20, 20]);
  }, 90_000);

  test("a Yahoo [TSS04] reply suspends only yahoo; another destination keeps delivering; yahoo mail waits deferred", async () => {
    const TSS04 = "4.7.0 [TSS04] Messages from 127.0.0.1 temporarily deferred due to unexpected volume or user complaints";
    const yahoo = await startSink({ script: () => ({ code: 421, message: TSS04 }) });
    const other = await startSink();
    sinks.push(yahoo, other);
    t = await makeTestApp({ toml: `[mta.routes]\n"yahoo.com" = "127.0.0.1:${yahoo.port}"\n"*" = "127.0.0.1:${other.port}"\n` });
    const send = await sender(t);
    for (let i = 0; i < 40; i++) await send(`y${i}@yahoo.com`);
    for (let i = 0; i < 20; i++) await send(`o${i}@other.test`);
    await t.app.mta.scheduler.start();
    await other.waitFor(20, 30_000);
    // Retries are 1 s apart in this config: a few seconds more would have re-attempted yahoo many times.
    await Bun.sleep(2_500);
    const y = t.app.mta.scheduler.destinations().find((d) => d.name === "yahoo")!;
    expect(y.provider).toBe("yahoo");
    expect(y.suspendedUntil! - Date.now()).toBeGreaterThan(3_600_000); // the built-in rule: 2 h
    expect(y.concurrency).toBe(0);
    expect(y.lastThrottle).toContain("TSS04");
    // Only the attempts already under way when the reply came: at most the initial window.
    const attempts = await t.app.store.zone("us").listQueue(10_000);
    expect(attempts.filter((r) => r.attempts > 0).length).toBeLessThanOrEqual(5);
    expect(await statusOf(t, "y0@yahoo.com")).not.toBe("failed");
    expect(attempts.filter((r) => r.rcptDomain === "yahoo.com").length).toBe(40);
    expect(attempts.every((r) => r.status === "queued" || r.status === "deferred")).toBe(true);
    // The snapshot is published to the store for the CLI and the console.
    await t.app.mta.scheduler.stop();
    const published = await t.app.store.zone("us").publishedDestinations();
    expect(published.find((p) => p.snapshot.name === "yahoo")?.snapshot.suspendedUntil).toBe(y.suspendedUntil);
  }, 60_000);

  test("a configured automation rule wins over the built-in one for the same reply", async () => {
    const yahoo = await startSink({ script: () => ({ code: 421, message: "4.7.0 [TSS04] deferred" }) });
    sinks.push(yahoo);
    t = await makeTestApp({ toml: `[mta.routes]\n"yahoo.com" = "127.0.0.1:${yahoo.port}"\n[[mta.shaping.automation]]\nprovider = "yahoo"\nmatch = "TSS04"\naction = "throttle"\nduration = "10m"\n` });
    const send = await sender(t);
    for (let i = 0; i < 5; i++) await send(`y${i}@yahoo.com`);
    await t.app.mta.scheduler.start();
    for (let i = 0; i < 100 && !t.app.mta.scheduler.destinations().find((d) => d.name === "yahoo")?.throttledUntil; i++) await Bun.sleep(100);
    const y = t.app.mta.scheduler.destinations().find((d) => d.name === "yahoo")!;
    expect([y.suspendedUntil, y.concurrency]).toEqual([null, 1]);
    expect(y.throttledUntil! - Date.now()).toBeLessThanOrEqual(600_000);
  }, 30_000);
});
