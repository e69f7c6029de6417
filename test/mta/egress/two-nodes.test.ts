// Two nodes of zone us on one PostgreSQL database share a warming address's hourly cap exactly:
// a day-1 address alone in its pool sends 20 in the hour whichever node attempts (each node says
// its own EHLO name from the same address), the other 10 wait for the next hour, then go.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import type { Principal } from "../../../src/core/model.ts";
import { WAIT_SPREAD_MS } from "../../../src/mta/queue/policy.ts";

setDefaultTimeout(120_000);
const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
const apps: TestApp[] = [];
let sink: Sink | null = null;
afterAll(async () => { for (const t of apps) await t.close(); await sink?.close(); await pg?.stop(); }, 60_000);

// Half past an hour, so the test never straddles the hour the caps count in; `jump` moves both nodes on.
const HOUR = 3_600_000;
const shift = HOUR / 2 - (Date.now() % HOUR);
let jump = 0;
const clock = () => Date.now() + shift + jump;

const node = (id: string, url: string, sinkPort: number) => makeTestApp({ now: clock, serverToml: `node_id = "${id}"\nclaim_lease = "5s"`,
  toml: `[storage]\nengine = "postgres"\npostgres_url = "${url}"\n[mta.routes]\n"*" = "127.0.0.1:${sinkPort}"\n`
    + `[mta.egress.new]\nsource_address = "127.0.0.2"\nehlo = "${id}.test"\nwarmup_start = "${new Date(clock()).toISOString().slice(0, 10)}"\n`
    + `[mta.pools.default]\nsources = ["new"]\n` });

async function until(what: string, ok: () => Promise<boolean> | boolean) {
  const deadline = Date.now() + 60_000;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

test.skipIf(pg === null)("two nodes: 20 in the hour from a day-1 address, the rest at the next hour", async () => {
  sink = await startSink({ hideStartTls: true });
  const url = await pg!.createDatabase("egress_nodes");
  const a = await node("node-a", url, sink.port);
  apps.push(a);
  const b = await node("node-b", url, sink.port);
  apps.push(b);
  const principal = (await a.app.access.authenticate(a.domainKey)) as Principal;
  const sent = await a.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: Array.from({ length: 30 }, (_, i) => ({ to: [{ email: `r${i}@dest.test` }], subject: "s", text: "t" })) });
  await Promise.all([a.app.mta.scheduler.start(), b.app.mta.scheduler.start()]);

  const zone = a.app.store.zone("us");
  const rows = async () => (await Promise.all(sent.messages.map((m) => zone.listRecipients(m.id)))).flat();
  await until("20 delivered and 10 waiting", async () => {
    const r = await rows();
    return r.filter((x) => x.status === "delivered").length === 20 && r.filter((x) => x.status === "deferred" && x.attempts === 0).length === 10;
  });
  const nextHour = (Math.floor(clock() / HOUR) + 1) * HOUR;
  for (const r of (await rows()).filter((x) => x.status === "deferred")) {
    expect(r.nextAttemptAt).toBeGreaterThanOrEqual(nextHour);
    expect(r.lastResponse).toBe("warm-up cap of new reached; next hour");
  }
  expect(sink.messages).toHaveLength(20);
  expect(new Set(sink.messages.map((m) => m.session.remoteAddress?.replace(/^::ffff:/, "")))).toEqual(new Set(["127.0.0.2"]));
  const byNode = sink.messages.reduce<Record<string, number>>((o, m) => ({ ...o, [m.session.hostNameAppearsAs ?? ""]: (o[m.session.hostNameAppearsAs ?? ""] ?? 0) + 1 }), {});
  expect(Object.keys(byNode).sort()).toEqual(["node-a.test", "node-b.test"]); // both nodes sent, together 20
  expect((await b.app.egress.list()).find((s) => s.name === "new")).toMatchObject({ hour_cap: 20, hour_sent: 20 });
  expect(await zone.searchEvents({ types: ["failed"], limit: 10 })).toEqual([]);

  jump = nextHour + WAIT_SPREAD_MS - clock();
  await until("the other 10 at the next hour", () => sink!.messages.length >= 30);
  await until("every outcome written", async () => (await rows()).every((r) => r.status === "delivered"));
  expect(sink.messages).toHaveLength(30);
  expect((await a.app.egress.list()).find((s) => s.name === "new")).toMatchObject({ hour_sent: 10, waits_until: null });
});
