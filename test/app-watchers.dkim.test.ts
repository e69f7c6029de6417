// The DKIM lifecycle as src/app-watchers.ts wires it into a real app: its tick (promotePending) tells
// the alerts how long a pending key waits (dkim_pending fires past 48 hours), and the doctor's dkim
// check promotes a key once dnsmasq publishes it and reports every published selector.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "./helpers/app.ts";
import { createDkimDns } from "./helpers/dkim-dns.ts";

setDefaultTimeout(60_000);
const DOMAIN = "wired.test";
const HOUR = 3_600_000;
let clock = Date.UTC(2026, 5, 1);
const world = createDkimDns(DOMAIN);
const resolver = world.resolver;
const publish = world.publish;
let t: TestApp;

const keys = async () => t.app.store.control.getDkimKeys((await t.app.domains.get(DOMAIN))!.id);

beforeAll(async () => {
  await publish([]);
  t = await makeTestApp({ domain: DOMAIN, resolver, now: () => clock, toml: `[doctor]\ninterval = "0"\n` });
});
afterAll(async () => {
  await t.close();
  await world.stop();
});

test("a pending key unpublished after 48 hours fires dkim_pending; the doctor's check promotes it once published", async () => {
  await publish(await keys());
  const [rsa, ed] = await t.app.dkimKeys.rotate(DOMAIN);
  clock += 47 * HOUR;
  await t.app.dkimKeys.promotePending();
  expect((await t.app.alerts.incidents(true)).filter((i) => i.rule === "dkim_pending")).toEqual([]);
  clock += 2 * HOUR;
  await t.app.dkimKeys.promotePending();
  const firing = (await t.app.alerts.incidents(true)).filter((i) => i.rule === "dkim_pending");
  expect(firing.map((i) => [i.subject, i.value]).sort()).toEqual([[rsa!.record.name, 49], [ed!.record.name, 49]]);

  const [waiting] = await t.app.doctor.run({ domain: DOMAIN, ids: ["dkim"] });
  expect(waiting!.severity).toBe("warn");

  await publish(await keys());
  const [result] = await t.app.doctor.run({ domain: DOMAIN, ids: ["dkim"] });
  expect(Object.keys((result!.data as { selectors: Record<string, unknown> }).selectors)).toEqual(["s1", "s1e", rsa!.selector, ed!.selector]);
  expect(result!.severity).toBe("ok");
  expect((await keys()).map((k) => k.state)).toEqual(["retiring", "retiring", "active", "active"]);
  const after = (await t.app.alerts.incidents(false)).filter((i) => i.rule === "dkim_pending");
  expect(after.every((i) => i.clear_since !== null || i.resolved_at !== null)).toBe(true);
});
