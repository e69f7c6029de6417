// control.sqlite: DKIM keys with their lifecycle, several per (domain, algorithm), one per selector.
import type { Database } from "bun:sqlite";
import type { DkimKey } from "../../core/model.ts";
import type { DkimKeyStore } from "../../core/dkim-key-port.ts";

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const toDkimKey = (r: Row): DkimKey => ({
  domainId: Number(r.domain_id), selector: r.selector as string, algorithm: r.algorithm as DkimKey["algorithm"],
  privateKeyPem: r.private_key as string, publicKey: r.public_key as string, state: r.state as DkimKey["state"],
  createdAt: Number(r.created_at), activatedAt: num(r.activated_at), retireAt: num(r.retire_at),
});

/** Oldest first; within one moment by selector, so a pair (s1, s1e) lists RSA then Ed25519. */
export const DKIM_ORDER = "ORDER BY created_at, selector";

export function createDkimKeyStore(db: Database): DkimKeyStore & { getDkimKeys(domainId: number): Promise<DkimKey[]> } {
  return {
    async getDkimKeys(domainId) {
      return (db.query(`SELECT * FROM dkim_keys WHERE domain_id = ? ${DKIM_ORDER}`).all(domainId) as Row[]).map(toDkimKey);
    },
    async insertDkimKey(k) {
      const r = db.query(`INSERT INTO dkim_keys (domain_id, selector, algorithm, private_key, public_key, state, created_at, activated_at, retire_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`).run(k.domainId, k.selector, k.algorithm, k.privateKeyPem, k.publicKey,
        k.state, k.createdAt, k.activatedAt ?? null, k.retireAt ?? null);
      return r.changes > 0;
    },
    async updateDkimKey(domainId, selector, p) {
      const r = db.query(`UPDATE dkim_keys SET state = ?, activated_at = COALESCE(?, activated_at), retire_at = ?
        WHERE domain_id = ? AND selector = ?`).run(p.state, p.activatedAt ?? null, p.retireAt ?? null, domainId, selector);
      return r.changes > 0;
    },
  };
}
