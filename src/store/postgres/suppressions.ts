// Suppression lists in a zone schema, per sending domain; addresses are kept lower-case.
import type { Suppression, SuppressionStore } from "../../core/store-port.ts";
import { toSuppression } from "../sqlite/suppression-list.ts";
import { exec, one, rows, type Sql } from "./db.ts";
import { Writes } from "./writes.ts";

/** Adds the upsert of `list` to `w` (the last entry for one key wins, as repeated SQLite upserts do). */
export function addSuppressionWrites(w: Writes, list: Suppression[]): void {
  if (list.length === 0) return;
  const last = new Map<string, Suppression>();
  for (const s of list) last.set(`${s.domain}\n${s.type}\n${s.address.toLowerCase()}`, s);
  const all = [...last.values()];
  const col = <T>(f: (s: Suppression) => T) => w.bind(all.map(f));
  w.add(`INSERT INTO suppressions (domain, type, address, reason, code, scope, created_at)
    SELECT * FROM unnest(${col((s) => s.domain)}::text[], ${col((s) => s.type)}::text[], ${col((s) => s.address.toLowerCase())}::text[],
      ${col((s) => s.reason)}::text[], ${col((s) => s.code)}::text[], ${col((s) => s.scope)}::text[], ${col((s) => s.createdAt)}::bigint[])
    ON CONFLICT (domain, type, address) DO UPDATE SET reason = excluded.reason, code = excluded.code, scope = excluded.scope,
      created_at = excluded.created_at`);
}

/** Upserts `list` inside `tx` (or on its own). */
export async function writeSuppressions(tx: Sql, list: Suppression[]): Promise<void> {
  const w = new Writes();
  addSuppressionWrites(w, list);
  await w.run(tx);
}

export function createSuppressionStore(sql: Sql): SuppressionStore {
  return {
    addSuppressions: (list) => writeSuppressions(sql, list),
    async getSuppression(domain, type, address) {
      const r = await one(sql, "SELECT * FROM suppressions WHERE domain = $1 AND type = $2 AND address = $3", [domain, type, address.toLowerCase()]);
      return r ? toSuppression(r) : null;
    },
    async findSuppressed(domain, addresses) {
      if (addresses.length === 0) return [];
      const lower = [...new Set(addresses.map((a) => a.toLowerCase()))];
      return (await rows(sql, "SELECT * FROM suppressions WHERE domain = $1 AND address = ANY($2::text[])", [domain, lower])).map(toSuppression);
    },
    async isListedAnywhere(address, type) {
      return (await one(sql, "SELECT 1 AS x FROM suppressions WHERE address = $1 AND type = $2 LIMIT 1", [address.toLowerCase(), type])) !== null;
    },
    async listSuppressions({ domain, type, after, before, descending, limit, address }) {
      const where = ["domain = $1"];
      const args: unknown[] = [domain];
      const add = (clause: string, value: unknown) => { args.push(value); where.push(clause.replace("?", `$${args.length}`)); };
      if (type) add("type = ?", type);
      if (after) add(`address COLLATE "C" > ?`, after);
      if (before) add(`address COLLATE "C" < ?`, before);
      if (address) add("address = ?", address.toLowerCase());
      args.push(limit);
      const order = descending ? "DESC" : "ASC";
      return (await rows(sql, `SELECT * FROM suppressions WHERE ${where.join(" AND ")}
        ORDER BY address COLLATE "C" ${order}, type COLLATE "C" ${order} LIMIT $${args.length}`, args as never[])).map(toSuppression);
    },
    async deleteSuppression(domain, type, address) {
      return type
        ? exec(sql, "DELETE FROM suppressions WHERE domain = $1 AND address = $2 AND type = $3", [domain, address.toLowerCase(), type])
        : exec(sql, "DELETE FROM suppressions WHERE domain = $1 AND address = $2", [domain, address.toLowerCase()]);
    },
    deleteAllSuppressions: (domain, type) => exec(sql, "DELETE FROM suppressions WHERE domain = $1 AND type = $2", [domain, type]),
  };
}
