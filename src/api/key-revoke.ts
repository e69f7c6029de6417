// Revoking a key by id, as every surface with a key route does it: a key the caller cannot see
// (another tenant's, or another domain's for a domain key) is not found; one with more rights
// than the caller's own is refused.
import type { AccessService, KeyInfo } from "../core/access.ts";
import type { Principal } from "../core/model.ts";
import { forbidden, notFound } from "../core/errors.ts";
import { changesTenant, mayManageKey, seesTenant } from "../core/permissions.ts";
import { grantRights } from "./grants.ts";

export async function revokeVisibleKey(access: Pick<AccessService, "getKey" | "revokeKey">, p: Principal, id: string): Promise<KeyInfo> {
  const key = await access.getKey(id);
  if (!key || !seesTenant(p, key.tenant) || (p.kind === "domain" && key.domain !== p.domain?.name)) throw notFound(`key ${id} not found`);
  // Seen by a reader of every tenant, another tenant's key is revoked only while acting for that tenant.
  if (!changesTenant(p, key.tenant)) throw forbidden(`this key is tenant ${key.tenant ?? 0}'s: act for that tenant to revoke it`);
  if (!mayManageKey(p, key, grantRights)) throw forbidden("a key cannot revoke a key with more rights than its own");
  await access.revokeKey(key.id);
  return key;
}
