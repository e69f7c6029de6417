// The control schema: DKIM keys with their lifecycle, several per (domain, algorithm), one per selector.
import type { DkimKey } from "../../core/model.ts";
import type { DkimKeyStore } from "../../core/dkim-key-port.ts";
import { toDkimKey } from "../sqlite/dkim-keys.ts";
import { exec, rows, type Sql } from "./db.ts";

// As SQLite orders them: selectors byte-wise (a locale collation would skip the "-" of "s1-2").
const DKIM_ORDER = `ORDER BY created_at, selector COLLATE "C"`;

export function createDkimKeyStore(sql: Sql): DkimKeyStore & { getDkimKeys(domainId: number): Promise<DkimKey[]> } {
  return {
    async getDkimKeys(domainId) {
      return (await rows(sql, `SELECT * FROM dkim_keys WHERE domain_id = $1 ${DKIM_ORDER}`, [domainId])).map(toDkimKey);
    },
    async insertDkimKey(k) {
      return (await exec(sql, `INSERT INTO dkim_keys (domain_id, selector, algorithm, private_key, public_key, state, created_at, activated_at, retire_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`, [k.domainId, k.selector, k.algorithm, k.privateKeyPem, k.publicKey,
        k.state, k.createdAt, k.activatedAt ?? null, k.retireAt ?? null])) > 0;
    },
    async updateDkimKey(domainId, selector, p) {
      return (await exec(sql, `UPDATE dkim_keys SET state = $1, activated_at = COALESCE($2, activated_at), retire_at = $3
        WHERE domain_id = $4 AND selector = $5`, [p.state, p.activatedAt ?? null, p.retireAt ?? null, domainId, selector])) > 0;
    },
  };
}
