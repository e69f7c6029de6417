// DKIM rotation through real deliveries: a real app delivers to a real SMTP sink, DNS is a real
// dnsmasq, signatures are checked by python3-dkim against what that DNS publishes. A rotated key
// signs new mail only once its record is published; meanwhile and afterwards, mail signed with the
// old key still verifies (it stays published while retiring). The clock moves past the MTA's
// one-minute key cache between phases.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { createDkimDns } from "../helpers/dkim-dns.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { dkimpyVerify } from "../helpers/dkimpy.ts";

setDefaultTimeout(90_000);
const DOMAIN = "example.com";
let offset = 0;
const world = createDkimDns(DOMAIN);
const resolver = world.resolver;
const publish = world.publish;
let t: TestApp;
let sink: Sink;

const keys = async () => t.app.store.control.getDkimKeys((await t.app.domains.get(DOMAIN))!.id);

beforeAll(async () => {
  await publish([]);
  sink = await startSink();
  t = await makeTestApp({ resolver, now: () => Date.now() + offset, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[doctor]\ninterval = "0"\n` });
  await publish(await keys());
  await t.app.mta.scheduler.start();
});
afterAll(async () => {
  await t.close();
  await sink.close();
  await world.stop();
});

const principal = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
/** Sends one message and returns its bytes as the sink got them. */
async function deliver(n: number): Promise<Buffer> {
  await t.app.sender.send(principal, { domain: DOMAIN, source: "cli", from: { email: "a@example.com" },
    envelopes: [{ to: [{ email: `r${n}@dest.test` }], subject: `m${n}`, text: "hello" }] });
  return (await sink.waitFor(n))[n - 1]!.raw;
}
const selectorsOf = (raw: Buffer) => [...raw.toString("latin1").matchAll(/\ss=([^;\s]+);/g)].map((m) => m[1]!);
/** dkimpy's verdicts with the TXT records the current DNS answers for the message's selectors. */
async function verify(raw: Buffer) {
  const records: Record<string, string> = {};
  for (const s of selectorsOf(raw)) {
    const name = `${s}._domainkey.${DOMAIN}`;
    records[name] = (await world.current().txt(name).catch(() => [[""]])).map((parts) => parts.join(""))[0] ?? "";
  }
  return dkimpyVerify(raw, records);
}

test("new mail is signed with the rotated key only once DNS shows it; the old key's mail keeps verifying", async () => {
  const first = await deliver(1);
  expect(selectorsOf(first)).toEqual(["s1", "s1e"]);
  expect(await verify(first)).toEqual([true, true]);

  const [rsa, ed] = await t.app.dkimKeys.rotate(DOMAIN);
  offset += 61_000;
  await t.app.dkimKeys.promotePending();
  const waiting = await deliver(2);
  expect(selectorsOf(waiting)).toEqual(["s1", "s1e"]);
  expect(await verify(waiting)).toEqual([true, true]);

  await publish(await keys());
  await t.app.dkimKeys.promotePending();
  offset += 61_000;
  const rotated = await deliver(3);
  expect(selectorsOf(rotated)).toEqual([rsa!.selector, ed!.selector]);
  expect(await verify(rotated)).toEqual([true, true]);
  // During the retire window both pairs are published, and both verify.
  expect(await verify(first)).toEqual([true, true]);
  expect((await keys()).map((k) => k.state)).toEqual(["retiring", "retiring", "active", "active"]);
});
