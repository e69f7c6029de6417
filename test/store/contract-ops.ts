// Operations every engine answers: its schema version, and a backup (SQLite: a copy of every file
// holding what was committed before; PostgreSQL: a refusal naming pg_dump).
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import type { Store } from "../../src/core/store-port.ts";
import { AppError } from "../../src/core/errors.ts";

export function opsContract(makeStore: () => Store | Promise<Store>) {
  test("schema version: every migration of the control data and of each zone", async () => {
    const store = await makeStore();
    const v = await store.schemaVersion();
    expect(v.control).toBeGreaterThan(0);
    expect(Object.keys(v.zones).sort()).toEqual(store.zoneNames().slice().sort());
    for (const n of Object.values(v.zones)) expect(n).toBeGreaterThan(0);
    await store.close();
  });

  test("backup: a copy of every database holding what was committed, or the engine's own tool named", async () => {
    const store = await makeStore();
    await store.zone("us").addSuppressions([{ domain: "backup.test", address: "kept@x.test", type: "bounces", reason: "r", code: "", scope: null, createdAt: 1 }]);
    const dir = join(mkdtempSync(join(tmpdir(), "postern-backup-")), "copy");
    const result = await store.backup(dir).catch((e: unknown) => e);
    await store.close();
    if (result instanceof AppError) {
      expect(result.message).toContain("pg_dump");
      return;
    }
    const files = result as { name: string; bytes: number }[];
    expect(files.map((f) => f.name).sort()).toEqual(readdirSync(dir).sort());
    expect(files.map((f) => f.name)).toContain("control.sqlite");
    const copy = new Database(join(dir, "us.sqlite"), { readonly: true });
    expect((copy.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    expect(copy.query("SELECT address FROM suppressions").all()).toEqual([{ address: "kept@x.test" }]);
    copy.close();
    // A backup goes into a new or empty directory only.
    const again = await makeStore();
    await expect(again.backup(dir)).rejects.toThrow(/not empty/);
    await again.close();
  });
}
