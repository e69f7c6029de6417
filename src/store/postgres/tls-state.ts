// TLS items in the control schema (the port's TlsStateStore), shared by every node ("content",
// not "value": db.ts reads a column named value as a number). The lock is a
// transaction-scoped advisory lock held while `fn` runs (an ACME order: seconds), so one node
// orders at a time and the others wait, then find its certificate stored.
import type { TlsStateStore } from "../../core/store-port.ts";
import { exec, one, type Sql } from "./db.ts";

export function createTlsStateStore(sql: Sql): TlsStateStore {
  return {
    async getTlsItem(name) { return ((await one(sql, "SELECT content FROM tls_items WHERE name = $1", [name]))?.content as string | undefined) ?? null; },
    async putTlsItem(name, value, now) {
      await exec(sql, `INSERT INTO tls_items (name, content, updated_at) VALUES ($1, $2, $3)
        ON CONFLICT (name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`, [name, value, now]);
    },
    async deleteTlsItem(name) { await exec(sql, "DELETE FROM tls_items WHERE name = $1", [name]); },
    async withTlsLock<T>(fn: () => Promise<T>): Promise<T> {
      return await sql.begin(async (tx) => {
        await tx.unsafe("SELECT pg_advisory_xact_lock(hashtext('postern.tls.order'))");
        return await fn();
      }) as T;
    },
  };
}
