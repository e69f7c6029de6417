// Claims across nodes: two apps on the same data (two nodes) with a one-second lease. A node renews
// the claims of its running attempts, so a slow attempt is never taken over; the claims of a node
// that went silent are taken over once their lease ends, and a starting node takes back only its own.
import { afterEach, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { Principal } from "../../../src/core/model.ts";

const apps: TestApp[] = [];
const sinks: Sink[] = [];
afterEach(async () => {
  for (const a of apps.splice(0).reverse()) await a.close();
  for (const s of sinks.splice(0)) await s.close();
}, 30_000);

async function node(nodeId: string, sink: Sink, dir?: string) {
  const t = await makeTestApp({ dir, keepDir: dir !== undefined, serverToml: `node_id = "${nodeId}"\nclaim_lease = "1s"`,
    toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  apps.push(t);
  return t;
}

async function send(t: TestApp, to: string) {
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" }, envelopes: [{ to: [{ email: to }], subject: "s", text: "t" }] });
}

test("an attempt that outlasts the lease keeps its claim: the other node does not send it again", async () => {
  // The sink answers each DATA after 3.5 s: three leases' worth.
  const sink = await startSink({ delayMs: 3_500 });
  sinks.push(sink);
  const a = await node("node-a", sink);
  const b = await node("node-b", sink, a.dir);
  await send(a, "slow@dest.test");
  await a.app.mta.scheduler.start();
  await sink.waitFor(1, 10_000);
  await b.app.mta.scheduler.start();
  await Bun.sleep(3_000);
  // Not registered (only the schedulers run here), node-a still shows through the claim it holds.
  expect((await b.app.nodes.list(null)).map((n) => [n.nodeId, n.claims.recipients, n.self])).toEqual([["node-a", 1, false]]);
  await a.app.mta.scheduler.drain();
  expect(sink.messages.length).toBe(1);
}, 30_000);

test("claims of a node that went silent are taken over when their lease ends; a starting node takes back only its own", async () => {
  const sink = await startSink();
  sinks.push(sink);
  const b = await node("node-b", sink);
  await send(b, "r1@dest.test");
  await send(b, "r2@dest.test");
  const z = b.app.store.zone("us");
  // node-a claimed one recipient and died; node-b once claimed the other and was restarted.
  await z.claimDue(Date.now(), 1, { owner: "node-a", leaseMs: 2_500 });
  await z.claimDue(Date.now(), 1, { owner: "node-b", leaseMs: 60_000 });
  const started = Date.now();
  await b.app.mta.scheduler.start();
  await sink.waitFor(1, 5_000);
  expect(Date.now() - started).toBeLessThan(2_000); // its own claim: at once
  await sink.waitFor(2, 10_000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000); // node-a's: after its lease
  expect(sink.messages.flatMap((m) => m.to).sort()).toEqual(["r1@dest.test", "r2@dest.test"]);
}, 30_000);
