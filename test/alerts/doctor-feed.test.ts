// The doctor's change feed as alert observations, by table; then a listing and a delisting fed
// through the real alerts service of an app fire one blocklist alert and resolve it an hour later.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { observationOfChange, type DoctorChange } from "../../src/alerts/doctor-feed.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

const AT = 1_800_000_000_000;
const change = (c: Partial<DoctorChange>): DoctorChange => ({ kind: "check", id: "dmarc", subject: "example.com", from: "ok", to: "error", at: AT, ...c });

test.each([
  ["a check turning error", change({}), { rule: "check", subject: "dmarc:example.com", firing: true, at: AT }],
  ["a check leaving error", change({ from: "error", to: "warn" }), { rule: "check", subject: "dmarc:example.com", firing: false, at: AT }],
  ["a machine-wide check", change({ id: "port25", subject: "" }), { rule: "check", subject: "port25", firing: true, at: AT }],
  ["a listing (ISO time)", change({ kind: "blocklist", id: "zen.spamhaus.org", subject: "192.0.2.1", from: "clear", to: "listed", at: new Date(AT).toISOString() }),
    { rule: "blocklist", subject: "192.0.2.1", firing: true, at: AT }],
  ["a delisting", change({ kind: "blocklist", id: "zen.spamhaus.org", subject: "192.0.2.1", from: "listed", to: "clear" }),
    { rule: "blocklist", subject: "192.0.2.1", firing: false, at: AT }],
  ["an unknown answer", change({ kind: "blocklist", subject: "192.0.2.1", from: "listed", to: "unknown" }), null],
  ["a check turning unknown", change({ from: "error", to: "unknown" }), null],
] as [string, DoctorChange, unknown][])("%s", (_name, c, want) => {
  expect(observationOfChange(c)).toEqual(want as never);
});

let t: TestApp;
beforeAll(async () => { t = await makeTestApp(); });
afterAll(async () => { await t.close(); });

test("a listing fires one alert; the delisting resolves it at once", async () => {
  const now = Date.now();
  const feed = async (c: Partial<DoctorChange>) => t.app.alerts.observe(observationOfChange(change({ kind: "blocklist", id: "zen.spamhaus.org", subject: "192.0.2.9", ...c }))!);
  expect(await feed({ from: "clear", to: "listed", at: now })).toMatchObject([{ rule: "blocklist", state: "firing", subject: "192.0.2.9" }]);
  expect(await feed({ from: "listed", to: "listed", at: now + 60_000 })).toEqual([]);
  expect(await feed({ from: "listed", to: "clear", at: now + 120_000 })).toMatchObject([{ rule: "blocklist", state: "resolved" }]);
  expect(await feed({ from: "clear", to: "clear", at: now + 180_000 })).toEqual([]);
});

test("delisted by one zone while another still lists it: the alert stays open", async () => {
  const now = Date.now();
  const feed = async (c: Partial<DoctorChange>) => t.app.alerts.observe(observationOfChange(change({ kind: "blocklist", id: "blocklist", subject: "192.0.2.77", ...c }))!);
  expect(await feed({ from: "clear", to: "listed", at: now, listedIn: ["a.test", "b.test"] })).toMatchObject([{ state: "firing" }]);
  expect(await feed({ from: "listed", to: "clear", at: now + 60_000, listedIn: ["b.test"] })).toEqual([]);
  expect(await feed({ from: "listed", to: "clear", at: now + 120_000, listedIn: [] })).toMatchObject([{ state: "resolved", subject: "192.0.2.77" }]);
});
