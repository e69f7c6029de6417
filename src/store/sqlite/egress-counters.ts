// control.sqlite: sends per egress source per UTC hour (the warm-up caps count here).
import type { Database } from "bun:sqlite";
import type { EgressCounterStore } from "../../core/egress/counter-port.ts";

const KEEP_HOURS = 24;

export function createEgressCounters(db: Database): EgressCounterStore {
  const take = db.query(`INSERT INTO egress_sends (source, hour, n) VALUES (?1, ?2, 1)
    ON CONFLICT (source, hour) DO UPDATE SET n = n + 1 WHERE n < ?3`);
  const add = db.query("INSERT INTO egress_sends (source, hour, n) VALUES (?1, ?2, ?3) ON CONFLICT (source, hour) DO UPDATE SET n = n + ?3");
  const prune = db.query("DELETE FROM egress_sends WHERE hour < ?");
  const inHour = db.query("SELECT source, n FROM egress_sends WHERE hour = ?");
  return {
    async takeEgressSlot(source, hour, cap) {
      if (cap <= 0) return false;
      return take.run(source, hour, cap).changes > 0;
    },
    async addEgressSends(hour, counts) {
      db.transaction(() => {
        for (const [source, n] of Object.entries(counts)) if (n > 0) add.run(source, hour, n);
        prune.run(hour - KEEP_HOURS);
      })();
    },
    async egressSends(hour) {
      return Object.fromEntries((inHour.all(hour) as { source: string; n: number }[]).map((r) => [r.source, r.n]));
    },
  };
}
