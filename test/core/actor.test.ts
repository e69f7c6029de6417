// Scenes (core/actor.ts) as the audit writer sees them: nothing is written outside a scene or
// before an actor is named; the actor and address named in a scene stay with it across awaits and
// do not leak into a concurrent scene.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAuditLog } from "../../src/core/audit.ts";
import { actorOf, nameActor, withScene } from "../../src/core/actor.ts";

test("records only inside a scene with an actor, each scene its own", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  let now = 1_800_000_000_000;
  const audit = createAuditLog({ store: store.control, now: () => now });
  await audit.record("key.create", "outside");
  await withScene(async () => { await audit.record("key.create", "unnamed"); });
  const a = withScene(async () => {
    nameActor(actorOf({ keyId: "k1" }), "10.0.0.1");
    await Bun.sleep(5);
    await audit.record("domain.add", "a.test");
  });
  const b = withScene(async () => {
    nameActor(actorOf({ keyId: "", userId: "u1" }), "10.0.0.2");
    await audit.record("user.add", "b@x.test", 0);
  });
  await withScene(() => audit.record("key.revoke", "k9"), { kind: "cli", id: "root" });
  await Promise.all([a, b]);
  now += 1;
  const page = await audit.list({});
  expect(page.items.map((e) => [e.action, e.actor.kind, e.actor.id, e.ip])).toEqual([
    ["domain.add", "key", "k1", "10.0.0.1"], ["key.revoke", "cli", "root", ""], ["user.add", "user", "u1", "10.0.0.2"]]);
  expect(page.items[0]!.at).toBe(new Date(1_800_000_000_000).toISOString());
  await store.close();
});
