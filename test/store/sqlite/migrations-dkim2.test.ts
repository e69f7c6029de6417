// The DKIM lifecycle migration on a control file an older postern wrote: each domain's keys carry
// over as active since the domain was added, and a second key per algorithm can then be added.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { DKIM2_CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations-dkim2.ts";
import { migrate } from "../../../src/store/sqlite/db.ts";
import { createDkimKeyStore } from "../../../src/store/sqlite/dkim-keys.ts";

test("existing keys become active keys, one row per selector", async () => {
  const db = new Database(":memory:", { strict: true });
  const before = CONTROL_MIGRATIONS.indexOf(DKIM2_CONTROL_MIGRATIONS[0]!);
  migrate(db, CONTROL_MIGRATIONS.slice(0, before));
  db.run("INSERT INTO domains (name, zone, dkim_selector, created_at, updated_at) VALUES ('old.test', 'us', 's1', 1000, 1000)");
  db.run("INSERT INTO dkim_keys (domain_id, selector, algorithm, private_key, public_key) VALUES (1, 's1', 'rsa-sha256', 'K1', 'P1'), (1, 's1e', 'ed25519-sha256', 'K2', 'P2')");
  migrate(db, CONTROL_MIGRATIONS);
  const store = createDkimKeyStore(db);
  expect((await store.getDkimKeys(1)).map((k) => [k.selector, k.algorithm, k.state, k.createdAt, k.activatedAt, k.publicKey])).toEqual([
    ["s1", "rsa-sha256", "active", 1000, 1000, "P1"], ["s1e", "ed25519-sha256", "active", 1000, 1000, "P2"]]);
  expect(await store.insertDkimKey({ domainId: 1, selector: "s2", algorithm: "rsa-sha256", privateKeyPem: "K3", publicKey: "P3", state: "pending", createdAt: 2000 })).toBe(true);
  expect((await store.getDkimKeys(1)).length).toBe(3);
});
