// The control schema: sends per egress source per UTC hour, shared by every node (the warm-up caps count here).
import type { EgressCounterStore } from "../../core/egress/counter-port.ts";
import { exec, rows, type Sql } from "./db.ts";

const KEEP_HOURS = 24;

export function createEgressCounters(sql: Sql): EgressCounterStore {
  return {
    async takeEgressSlot(source, hour, cap) {
      if (cap <= 0) return false;
      // One statement: concurrent nodes serialise on the row, so the cap holds across them.
      return (await exec(sql, `INSERT INTO egress_sends (source, hour, n) VALUES ($1, $2, 1)
        ON CONFLICT (source, hour) DO UPDATE SET n = egress_sends.n + 1 WHERE egress_sends.n < $3`, [source, hour, cap])) > 0;
    },
    async addEgressSends(hour, counts) {
      const entries = Object.entries(counts).filter(([, n]) => n > 0);
      await sql.begin(async (tx) => {
        for (const [source, n] of entries) {
          await exec(tx as unknown as Sql, `INSERT INTO egress_sends (source, hour, n) VALUES ($1, $2, $3)
            ON CONFLICT (source, hour) DO UPDATE SET n = egress_sends.n + $3`, [source, hour, n]);
        }
        await exec(tx as unknown as Sql, "DELETE FROM egress_sends WHERE hour < $1", [hour - KEEP_HOURS]);
      });
    },
    async egressSends(hour) {
      return Object.fromEntries((await rows(sql, "SELECT source, n FROM egress_sends WHERE hour = $1", [hour])).map((r) => [r.source as string, Number(r.n)]));
    },
  };
}
