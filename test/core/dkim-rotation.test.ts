// The DKIM key lifecycle end to end on a real store, a real DNS server (dnsmasq) and an independent
// verifier (python3-dkim): a rotated key signs only once DNS shows it, the old one stays published
// and verifying for retire_after, then retires; rotate_after starts the next rotation. A fake
// clock stands in for hours and days.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { generateDkimKeys, dkimRecordValue, signingKeys } from "../../src/core/dkim-keys.ts";
import { createDkimRotation, newSelectorBase, type DkimPendingObservation } from "../../src/core/dkim-rotation.ts";
import { createSystemResolver } from "../../src/dns.ts";
import { createSigner } from "../../src/mta/message/sign.ts";
import type { DkimKey } from "../../src/core/model.ts";
import type { Store } from "../../src/core/store-port.ts";
import { splitTxt, startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { dkimpyVerify } from "../helpers/dkimpy.ts";

const DOMAIN = "rot.test";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// In the past: dkimpy refuses a t= in the future.
const T0 = Date.UTC(2026, 0, 10, 12);
let clock = T0;
let store: Store;
let domainId = 0;
const observed: DkimPendingObservation[] = [];
const servers: DnsmasqServer[] = [];

beforeAll(async () => {
  store = openSqliteStore(":memory:", ["us"]);
  const keys = await generateDkimKeys("s1");
  domainId = (await store.control.insertDomain({ name: DOMAIN, zone: "us", wildcard: false, dkimSelector: "s1", validation: false, botDetection: false,
    openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month", keys }, T0)).id;
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await store.close();
});

/** A DNS server publishing exactly these keys (long RSA values split as a DNS host does). */
async function publish(keys: DkimKey[]) {
  const dns = await startDnsmasq(keys.map((k) => ({ type: "TXT" as const, name: `${k.selector}._domainkey.${DOMAIN}`, strings: splitTxt(dkimRecordValue(k)) })));
  servers.push(dns);
  return createSystemResolver([dns.server], { timeoutMs: 2000, maxTtlSeconds: 0, negativeTtlSeconds: 0 });
}

const rotationWith = (resolver: ReturnType<typeof createSystemResolver>) => createDkimRotation({ control: store.control, resolver, now: () => clock,
  rotateAfterMs: 180 * DAY, retireAfterMs: 7 * DAY, observe: (o) => observed.push(o) });

const keysNow = () => store.control.getDkimKeys(domainId);
const stateOf = async () => Object.fromEntries((await keysNow()).map((k) => [k.selector, k.state]));

const MESSAGE = Buffer.from(["From: a@rot.test", "To: b@dest.test", "Subject: hi", "Date: Sat, 10 Jan 2026 12:00:00 +0000",
  "Message-ID: <r1@rot.test>", "", "hello", ""].join("\r\n"));

/** Signs as the MTA does (signingKeys of the stored keys); returns the selectors used and dkimpy's verdicts against what DNS publishes. */
async function signAndVerify(resolver: ReturnType<typeof createSystemResolver>, raw?: Buffer) {
  const signed = raw ?? await createSigner({ keysFor: async () => signingKeys(await keysNow()), now: () => clock, rsa: "node" }).sign(MESSAGE, DOMAIN);
  const selectors = [...signed.toString("latin1").matchAll(/\ss=([^;\s]+);/g)].map((m) => m[1]!);
  const records: Record<string, string> = {};
  for (const s of selectors) {
    const name = `${s}._domainkey.${DOMAIN}`;
    records[name] = (await resolver.txt(name).catch(() => [[""]])).map((parts) => parts.join(""))[0] ?? "";
  }
  return { signed, selectors, verdicts: await dkimpyVerify(signed, records) };
}

test("a dated, unique selector per rotation: s + UTC day, then -2, -3; Ed25519's ends in e", () => {
  expect(newSelectorBase([{ selector: "s1" }], T0)).toBe("s20260110");
  expect(newSelectorBase([{ selector: "s20260110" }, { selector: "s20260110e" }], T0)).toBe("s20260110-2");
});

test("rotate → pending until DNS shows it → active, old retiring (both verify) → retired; rotate_after rotates again", async () => {
  const [oldRsa, oldEd] = await keysNow();
  const onlyOld = await publish([oldRsa!, oldEd!]);
  let rotation = rotationWith(onlyOld);
  const added = await rotation.rotate(DOMAIN);
  expect(added.map((k) => [k.selector, k.algorithm, k.state])).toEqual([["s20260110", "rsa-sha256", "pending"], ["s20260110e", "ed25519-sha256", "pending"]]);
  expect(added[0]!.record.name).toBe("s20260110._domainkey.rot.test");

  // Not yet in DNS: still pending after hours; mail is signed with the old keys, which verify.
  clock = T0 + 5 * HOUR;
  await rotation.promotePending();
  expect(await stateOf()).toEqual({ s1: "active", s1e: "active", s20260110: "pending", s20260110e: "pending" });
  expect(observed).toContainEqual({ rule: "dkim_pending", subject: "s20260110._domainkey.rot.test", value: 5 });
  const before = await signAndVerify(onlyOld);
  expect(before.selectors).toEqual(["s1", "s1e"]);
  expect(before.verdicts).toEqual([true, true]);

  // Published (old and new): the new keys sign, the old ones retire for 7 days and still verify.
  const both = await publish(await keysNow());
  rotation = rotationWith(both);
  clock = T0 + 6 * HOUR;
  await rotation.promotePending();
  expect(await stateOf()).toEqual({ s1: "retiring", s1e: "retiring", s20260110: "active", s20260110e: "active" });
  expect(observed).toContainEqual({ rule: "dkim_pending", subject: "s20260110e._domainkey.rot.test", value: 0, firing: false });
  const after = await signAndVerify(both);
  expect(after.selectors).toEqual(["s20260110", "s20260110e"]);
  expect(after.verdicts).toEqual([true, true]);
  expect((await signAndVerify(both, before.signed)).verdicts).toEqual([true, true]);
  expect((await rotation.published(DOMAIN)).map((k) => k.selector)).toEqual(["s1", "s1e", "s20260110", "s20260110e"]);
  expect((await rotation.list(DOMAIN))[0]).toMatchObject({ state: "retiring", retire_at: new Date(clock + 7 * DAY).toISOString() });

  // Past retire_after: retired (safe to remove), no longer published.
  clock = T0 + 6 * HOUR + 7 * DAY;
  await rotation.promotePending();
  expect(await stateOf()).toMatchObject({ s1: "retired", s1e: "retired" });
  expect((await rotation.published(DOMAIN)).map((k) => k.selector)).toEqual(["s20260110", "s20260110e"]);

  // rotate_after (180 days since activation) adds the next pending pair by itself.
  clock = T0 + 6 * HOUR + 180 * DAY - 1;
  await rotation.promotePending();
  expect((await keysNow()).filter((k) => k.state === "pending")).toEqual([]);
  clock += 1;
  await rotation.promotePending();
  expect((await keysNow()).filter((k) => k.state === "pending").map((k) => k.selector)).toEqual(["s20260709", "s20260709e"]);
});

test("--now activates at once without DNS; Mailgun-style deactivate retires, activate signs again", async () => {
  const rotation = rotationWith(await publish([]));
  const keys = await rotation.rotate(DOMAIN, { now: true });
  expect(keys.map((k) => k.state)).toEqual(["active", "active"]);
  expect(signingKeys(await keysNow()).map((k) => k.selector)).toEqual(keys.map((k) => k.selector));
  const off = await rotation.deactivateSelector(DOMAIN, keys[0]!.selector);
  expect(off.state).toBe("retiring");
  expect(signingKeys(await keysNow()).map((k) => k.algorithm)).toEqual(["ed25519-sha256"]);
  expect((await rotation.activateSelector(DOMAIN, keys[0]!.selector)).state).toBe("active");
  await expect(rotation.activateSelector(DOMAIN, "nope")).rejects.toThrow("no key nope");
  await expect(rotation.rotate("missing.test")).rejects.toThrow("not found");
});

test("two nodes rotating at the same moment keep one pending pair", async () => {
  const resolver = await publish([]);
  const [a, b] = await Promise.all([rotationWith(resolver).rotate(DOMAIN), rotationWith(resolver).rotate(DOMAIN)]);
  expect(a!.map((k) => k.selector)).toEqual(b!.map((k) => k.selector));
  expect((await keysNow()).filter((k) => k.state === "pending").map((k) => k.selector)).toEqual(a!.map((k) => k.selector));
});
