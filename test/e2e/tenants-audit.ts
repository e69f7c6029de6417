// The audit-log reading of tenants.test.ts: every act that suite made (tenants on three surfaces,
// domains and keys on their behalf, webhooks, a suppression, suspensions and reactivations) read
// back from native GET /audit and from `postern audit --json`, which must agree.
import { expect } from "bun:test";
import { auditApi, auditCli, type AuditEntry, type World } from "./tenants-world.ts";

type Tenants = Record<"sg" | "mg" | "sp", { id: number; name: string; domain: string }>;

const pick = (items: AuditEntry[], action: string) => items.filter((e) => e.action === action)
  .map((e) => `${e.tenant} ${e.actor.kind} ${e.target}`).sort();

export async function checkAudit(w: World, T: Tenants) {
  const items = await auditApi(w, w.primaryKey);
  // The CLI reads the same log: same entries, same order (newest first).
  expect((await auditCli(w)).map((e) => [e.id, e.action, e.tenant, e.target])).toEqual(items.map((e) => [e.id, e.action, e.tenant, e.target]));
  expect(items.length).toBeGreaterThan(0);

  // The primary's acts carry its key's id; every entry made over HTTP carries the client's address.
  const keys = (await (await fetch(`${w.base}/keys`, { headers: { "ov-token": w.primaryKey } })).json()) as { items: { id: string; tenant: number; kind: string }[] };
  const tenantAdds = items.filter((e) => e.action === "tenant.add");
  expect(tenantAdds.map((e) => [e.tenant, e.target]).sort()).toEqual([[T.sg.id, T.sg.name], [T.mg.id, T.mg.name], [T.sp.id, T.sp.name]]);
  const primaryKeyId = tenantAdds[0]!.actor.id;
  expect(tenantAdds.every((e) => e.actor.kind === "key" && e.actor.id === primaryKeyId && e.ip === "127.0.0.1")).toBe(true);
  expect(keys.items.some((k) => k.id === primaryKeyId && k.kind === "account" && k.tenant === 0)).toBe(true);

  expect(pick(items, "tenant.suspend")).toEqual([`${T.sg.id} key ${T.sg.name}`, `${T.mg.id} key ${T.mg.name}`, `${T.sp.id} key ${T.sp.name}`]);
  expect(pick(items, "tenant.enable")).toEqual([`${T.sg.id} key ${T.sg.name}`, `${T.mg.id} key ${T.mg.name}`, `${T.sp.id} key ${T.sp.name}`]);
  // Domains: through Mailgun's header and SparkPost's tenant key (key), and `domain add --tenant` (cli).
  expect(pick(items, "domain.add")).toEqual([`0 cli primary.test`, `${T.sg.id} cli ${T.sg.domain}`, `${T.mg.id} key ${T.mg.domain}`, `${T.sp.id} key ${T.sp.domain}`]);
  expect(pick(items, "domain.verify").length).toBe(4);
  // Keys: SparkPost's subaccount key (tenant 3) and those made on behalf of a tenant (X-Postern-Tenant).
  const keyTenants = items.filter((e) => e.action === "key.create").map((e) => e.tenant).sort();
  expect(keyTenants).toEqual([T.sg.id, T.sg.id, T.sg.id, T.mg.id, T.sp.id, T.sp.id]);
  expect(items.filter((e) => e.action === "webhook.create").map((e) => e.tenant).sort()).toEqual([T.sg.id, T.mg.id, T.sp.id]);
  expect(pick(items, "suppression.add")).toEqual([`${T.sg.id} key ${T.sg.domain}/unsubscribes/x@dest.test`, `${T.mg.id} key ${T.mg.domain}/bounces/y@dest.test`,
    `${T.sp.id} key ${T.sp.domain}/unsubscribes/z@dest.test`]);

  // The filters: by actor kind and by family.
  expect((await auditApi(w, w.primaryKey, "actor=cli")).every((e) => e.actor.kind === "cli")).toBe(true);
  expect((await auditApi(w, w.primaryKey, "action=tenant")).length).toBe(9);
  expect((await auditCli(w, "--action", "tenant")).length).toBe(9);
  // Paging: next_cursor walks the same entries, two at a time; dates as Unix seconds or ISO 8601.
  const paged: string[] = [];
  for (let cursor = ""; ;) {
    const res = await fetch(`${w.base}/audit?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { headers: { "ov-token": w.primaryKey } });
    const page = (await res.json()) as { items: AuditEntry[]; next_cursor: string | null };
    paged.push(...page.items.map((e) => e.id));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  expect(paged).toEqual(items.map((e) => e.id));
  const later = Math.floor(Date.now() / 1000) + 3600;
  expect(await auditApi(w, w.primaryKey, `from=${later}`)).toEqual([]);
  expect((await auditApi(w, w.primaryKey, `to=${new Date(later * 1000).toISOString()}`)).length).toBe(items.length);
  // Append-only: no route changes or deletes an entry.
  for (const method of ["DELETE", "PUT", "PATCH"]) {
    const res = await fetch(`${w.base}/audit/${items[0]!.id}`, { method, headers: { "ov-token": w.primaryKey, "content-type": "application/json" }, body: "{}" });
    expect([404, 405]).toContain(res.status);
  }
  expect((await fetch(`${w.base}/audit`, { method: "DELETE", headers: { "ov-token": w.primaryKey } })).status).toBeOneOf([404, 405]);
  expect((await auditApi(w, w.primaryKey)).length).toBe(items.length);

  // sp.test was added by the subaccount's own key (SparkPost's create gave it), not the primary's.
  const spAdd = items.find((e) => e.action === "domain.add" && e.target === T.sp.domain)!;
  expect([spAdd.actor.kind, spAdd.actor.id === primaryKeyId]).toEqual(["key", false]);
}
