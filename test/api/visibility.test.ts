// Which domains a caller sees (api/visibility.ts canSee) once tenants exist: a primary key its own
// tenant's, a tenant's key or one-tenant console user that tenant's, a reads-all principal every one;
// a domain key only its own domain.
import { expect, test } from "bun:test";
import { canSee } from "../../src/api/visibility.ts";
import { principalOfUser } from "../../src/core/sessions.ts";
import type { Domain, Principal } from "../../src/core/model.ts";
import type { StoredUser } from "../../src/core/team/store-port.ts";

const d = (id: number, tenantId?: number) => ({ id, name: `d${id}.test`, ...(tenantId === undefined ? {} : { tenantId }) }) as Domain;
const key = (extra: Partial<Principal> = {}): Principal => ({ accountId: 1, keyId: "k", kind: "account", domain: null, grants: [], ...extra });
const user = (tenant: number | null): StoredUser => ({ id: "u", email: "u@x.test", role: "admin", tenant, passwordHash: "", totpSecret: "", totpPending: "",
  recoveryCodes: [], totpStep: 0, oidcIssuer: null, oidcSubject: null, createdAt: 0, updatedAt: 0 });

test("tenant scope of domain visibility", () => {
  const [primary, acme, beta] = [d(1), d(2, 2), d(3, 3)];
  const seen = (p: Principal) => [primary, acme, beta].filter((x) => canSee(p, x)).map((x) => x.id);
  expect(seen(key())).toEqual([1]);
  expect(seen(key({ tenant: 2 }))).toEqual([2]);
  expect(seen(key({ readAll: true }))).toEqual([1, 2, 3]);
  expect(seen(key({ kind: "domain", domain: acme, tenant: 2 }))).toEqual([2]);
  expect(seen(principalOfUser(user(null), 1))).toEqual([1, 2, 3]);
  expect(seen(principalOfUser(user(3), 1))).toEqual([3]);
  expect(seen(principalOfUser(user(0), 1))).toEqual([1]);
});
