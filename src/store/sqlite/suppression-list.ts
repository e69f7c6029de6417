// Listing a zone's suppressions in address order, forwards (after a cursor) or backwards (before
// one, nearest first), so Mailgun's previous/last pages read one page instead of walking the list.
import type { Database } from "bun:sqlite";
import type { Suppression, ZoneStore } from "../../core/store-port.ts";

type Row = Record<string, unknown>;

export const toSuppression = (r: Row): Suppression => ({
  domain: r.domain as string, type: r.type as Suppression["type"], address: r.address as string, reason: r.reason as string,
  code: r.code as string, scope: (r.scope as string | null) ?? null, createdAt: r.created_at as number,
});

export function createSuppressionListing(db: Database): Pick<ZoneStore, "listSuppressions"> {
  return {
    async listSuppressions({ domain, type, after, before, descending, limit, address }) {
      const where = ["domain = ?"];
      const args: (string | number)[] = [domain];
      if (type) { where.push("type = ?"); args.push(type); }
      if (after) { where.push("address > ?"); args.push(after); }
      if (before) { where.push("address < ?"); args.push(before); }
      if (address) { where.push("address = ?"); args.push(address.toLowerCase()); }
      args.push(limit);
      const order = descending ? "DESC" : "ASC";
      const rows = db.query(`SELECT * FROM suppressions WHERE ${where.join(" AND ")} ORDER BY address ${order}, type ${order} LIMIT ?`).all(...args) as Row[];
      return rows.map(toSuppression);
    },
  };
}
