// The DKIM lifecycle migration of the PostgreSQL engine on a control schema an older postern wrote:
// each domain's keys carry over as active since the domain was added, one row per selector.
import { afterAll, expect, test } from "bun:test";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { CONTROL_MIGRATIONS, CONTROL_SCHEMA } from "../../../src/store/postgres/migrations.ts";
import { DKIM2_CONTROL_MIGRATIONS } from "../../../src/store/postgres/migrations-dkim2.ts";
import { migrate, openPool } from "../../../src/store/postgres/db.ts";
import { createDkimKeyStore } from "../../../src/store/postgres/dkim-keys.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

test.skipIf(pg === null)("existing keys become active keys; a second key per algorithm can then be added", async () => {
  const sql = openPool(await pg!.createDatabase("dkim2"), CONTROL_SCHEMA, 1);
  await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.indexOf(DKIM2_CONTROL_MIGRATIONS[0]!)));
  await sql.unsafe("INSERT INTO domains (name, zone, dkim_selector, created_at, updated_at) VALUES ('old.test', 'us', 's1', 1000, 1000)");
  const id = Number((await sql.unsafe("SELECT id FROM domains"))[0]!.id);
  await sql.unsafe(`INSERT INTO dkim_keys (domain_id, selector, algorithm, private_key, public_key)
    VALUES ($1, 's1', 'rsa-sha256', 'K1', 'P1'), ($1, 's1e', 'ed25519-sha256', 'K2', 'P2')`, [id]);
  await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS);
  const store = createDkimKeyStore(sql);
  expect((await store.getDkimKeys(id)).map((k) => [k.selector, k.algorithm, k.state, k.createdAt, k.activatedAt, k.publicKey])).toEqual([
    ["s1", "rsa-sha256", "active", 1000, 1000, "P1"], ["s1e", "ed25519-sha256", "active", 1000, 1000, "P2"]]);
  expect(await store.insertDkimKey({ domainId: id, selector: "s2", algorithm: "rsa-sha256", privateKeyPem: "K3", publicKey: "P3", state: "pending", createdAt: 2000 })).toBe(true);
  expect((await store.getDkimKeys(id)).length).toBe(3);
  await sql.close();
}, 60_000);
