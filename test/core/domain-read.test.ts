// The one cached domain read: repeated reads within the TTL are answered from memory, a write
// through the store is seen at once, a write another process makes is seen after the TTL.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { withDomainCache } from "../../src/core/domain-read.ts";

const NOW = 1_800_000_000_000;
const settings = { validation: true, botDetection: true, openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false,
  limitMax: 0, limitWindow: "month" as const };

test("domain reads are cached for a moment, dropped on a write through the store, misses never kept", async () => {
  let now = NOW;
  const engine = openSqliteStore(":memory:", ["us"]);
  const store = withDomainCache(engine, () => now);
  expect(await store.control.getDomain("a.test")).toBeNull();
  const d = await store.control.insertDomain({ ...settings, name: "a.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [] }, NOW);
  expect((await store.control.getDomain("a.test"))?.id).toBe(d.id);
  // Another writer (the engine directly, as a second process would): unseen until the TTL passes.
  await engine.control.updateDomain("a.test", { state: "disabled" }, NOW);
  expect((await store.control.getDomain("a.test"))?.state).toBe(d.state);
  expect((await store.control.getDomainById(d.id))?.state).toBe(d.state);
  now += 1_000;
  expect((await store.control.getDomain("a.test"))?.state).toBe("disabled");
  // A write through the cached store is seen at once, by name and by id.
  await store.control.updateDomain("a.test", { state: "active" }, NOW);
  expect((await store.control.getDomain("a.test"))?.state).toBe("active");
  expect((await store.control.getDomainById(d.id))?.state).toBe("active");
  await store.control.deleteDomain("a.test");
  expect(await store.control.getDomain("a.test")).toBeNull();
  await store.close();
});
