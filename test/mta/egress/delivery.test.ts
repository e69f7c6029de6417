// Egress end to end, on real sockets: outbound SMTP binds to each source's address and says its EHLO
// name; a warming address sends at most its hourly cap and the rest goes through the warm one.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { Principal } from "../../../src/core/model.ts";
import { WAIT_SPREAD_MS } from "../../../src/mta/queue/policy.ts";

let t: TestApp | null = null;
let sink: Sink | null = null;
/** How far a test moved the app's clock on (to the next hour). */
let jump = 0;
afterEach(async () => { await t?.close(); await sink?.close(); t = null; sink = null; jump = 0; });

// The app's clock starts at half past an hour, so a test never straddles the hour the caps count in.
const HOUR = 3_600_000;
const shift = HOUR / 2 - (Date.now() % HOUR);
const clock = () => Date.now() + shift + jump;
const today = () => new Date(clock()).toISOString().slice(0, 10);

async function setup(egress: string) {
  sink = await startSink({ hideStartTls: true });
  t = await makeTestApp({ now: clock, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n${egress}` });
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.mta.scheduler.start();
  return principal;
}

const send = (principal: Principal, n: number, extra: { ipPool?: string; sendingIp?: string } = {}) =>
  t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" }, ...extra,
    envelopes: Array.from({ length: n }, (_, i) => ({ to: [{ email: `r${i}@dest.test` }], subject: "s", text: "t" })) });

const peers = (s: Sink) => s.messages.map((m) => `${m.session.remoteAddress?.replace(/^::ffff:/, "")} ${m.session.hostNameAppearsAs}`);
const tally = (list: string[]) => list.reduce<Record<string, number>>((o, k) => ({ ...o, [k]: (o[k] ?? 0) + 1 }), {});

describe("egress sources", () => {
  test("each pool's connections bind to its source address and say its EHLO name", async () => {
    const principal = await setup(`[mta.egress.ip2]\nsource_address = "127.0.0.2"\nehlo = "mta2.test"\n[mta.egress.ip3]\nsource_address = "127.0.0.3"\nehlo = "mta3.test"\n`
      + `[mta.pools.default]\nsources = ["ip2"]\n[mta.pools.bulk]\nsources = ["ip3"]\n`);
    await send(principal, 2);
    await send(principal, 3, { ipPool: "bulk" });
    await sink!.waitFor(5);
    expect(tally(peers(sink!))).toEqual({ "127.0.0.2 mta2.test": 2, "127.0.0.3 mta3.test": 3 });
  });

  test("Mailgun's o:sending-ip: the message goes out from that source whatever the pool", async () => {
    const principal = await setup(`[mta.egress.ip2]\nsource_address = "127.0.0.2"\n[mta.egress.ip3]\nsource_address = "127.0.0.3"\n[mta.pools.default]\nsources = ["ip2", "ip3"]\n`);
    await send(principal, 4, { sendingIp: "127.0.0.3" });
    await sink!.waitFor(4);
    expect(tally(peers(sink!))).toEqual({ "127.0.0.3 mta.test": 4 });
  });

  test("unknown pools and sending addresses are refused at accept", async () => {
    const principal = await setup(`[mta.egress.ip2]\nsource_address = "127.0.0.2"\n[mta.pools.default]\nsources = ["ip2"]\n`);
    await expect(send(principal, 1, { ipPool: "nope" })).rejects.toMatchObject({ code: "invalid", reason: "unknown_pool", field: "ipPool" });
    await expect(send(principal, 1, { sendingIp: "127.0.0.9" })).rejects.toMatchObject({ code: "invalid", reason: "unknown_pool", field: "sendingIp" });
  });

  test("a day-1 address sends 20 in the hour; the rest goes through the pool's warm address", async () => {
    const principal = await setup(`[mta.egress.new]\nsource_address = "127.0.0.2"\nwarmup_start = "${today()}"\n`
      + `[mta.egress.warm]\nsource_address = "127.0.0.3"\n[mta.pools.default]\nsources = ["new", "warm"]\n`);
    await send(principal, 30);
    await sink!.waitFor(30);
    expect(tally(peers(sink!).map((p) => p.split(" ")[0]!))).toEqual({ "127.0.0.2": 20, "127.0.0.3": 10 });
    const list = await t!.app.egress.list();
    expect(list.find((s) => s.name === "new")).toMatchObject({ address: "127.0.0.2", pool: "default", warmup_day: 1, hour_cap: 20, hour_sent: 20 });
    expect(list.find((s) => s.name === "warm")).toMatchObject({ warmup_day: null, hour_cap: null });
    const metrics = await t!.app.metrics.render();
    expect(metrics).toContain('postern_egress_hour_sent{source="new",address="127.0.0.2",pool="default"} 20');
    expect(metrics).toContain('postern_egress_hour_cap{source="new",address="127.0.0.2"} 20');
    expect(metrics).not.toContain('postern_egress_hour_cap{source="warm"');
  });

  test("with no warm address, mail above the cap waits (deferred, never failed) for the next hour, then goes", async () => {
    const principal = await setup(`[mta.egress.new]\nsource_address = "127.0.0.2"\nwarmup_start = "${today()}"\n[mta.pools.default]\nsources = ["new"]\n`);
    const sent = await send(principal, 23);
    await sink!.waitFor(20);
    const zone = t!.app.store.zone("us");
    for (let i = 0; i < 200 && (await zone.searchEvents({ types: ["deferred"], limit: 10 })).length < 3; i++) await Bun.sleep(50);
    const deferred = await zone.searchEvents({ types: ["deferred"], limit: 10 });
    expect(deferred).toHaveLength(3);
    expect(deferred.map((e) => e.description)).toEqual(Array(3).fill("warm-up cap of new reached; next hour"));
    expect(await zone.searchEvents({ types: ["failed"], limit: 10 })).toEqual([]);
    // They wait for the top of the next UTC hour (each a little after it), not the retry schedule (1 s here).
    const nextHour = (Math.floor(clock() / HOUR) + 1) * HOUR;
    const waiting = (await Promise.all(sent.messages.map((m) => zone.listRecipients(m.id)))).flat().filter((r) => r.status === "deferred");
    expect(waiting).toHaveLength(3);
    for (const r of waiting) {
      expect(r.nextAttemptAt).toBeGreaterThanOrEqual(nextHour);
      expect(r.nextAttemptAt).toBeLessThan(nextHour + WAIT_SPREAD_MS);
      expect(r).toMatchObject({ attempts: 0, lastResponse: "warm-up cap of new reached; next hour" });
    }
    expect((await t!.app.egress.list()).find((s) => s.name === "new")!.waits_until).toBe(new Date(nextHour).toISOString());
    expect(sink!.messages.length).toBe(20);
    // The next hour: the three go, from the same address, under the new hour's cap.
    jump = nextHour + WAIT_SPREAD_MS - clock();
    await sink!.waitFor(23);
    expect(tally(peers(sink!).map((p) => p.split(" ")[0]!))).toEqual({ "127.0.0.2": 23 });
    expect((await t!.app.egress.list()).find((s) => s.name === "new")).toMatchObject({ hour_sent: 3, waits_until: null });
    expect(await zone.searchEvents({ types: ["failed"], limit: 10 })).toEqual([]);
  });
});
