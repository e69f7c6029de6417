// The store contract for the team (core/team/store-port.ts) and the audit log (core/audit-port.ts):
// users by id, email and OIDC link; invitations used once; user sessions; an audit log that is
// appended, read newest first with filters and a cursor, refuses updates, and expires by age only.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";
import type { StoredUser } from "../../src/core/team/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const user = (id: string, email: string, role: StoredUser["role"] = "analyst"): StoredUser => ({
  id, email, role, tenant: null, passwordHash: "", totpSecret: "", totpPending: "", recoveryCodes: [], totpStep: 0, oidcIssuer: null, oidcSubject: null,
  createdAt: NOW, updatedAt: NOW,
});

export function teamContract(open: Open) {
  test("users: found by id, email and OIDC link, changed, listed by email and deleted with their sessions and invitations", async () => {
    const store = await open();
    const c = store.control;
    await c.insertUser(user("u1", "Zed@Example.test", "owner"));
    await c.insertUser(user("u2", "amy@example.test"));
    await expect(c.insertUser(user("u3", "amy@example.test"))).rejects.toThrow();
    expect((await c.getUser({ email: "ZED@example.test" }))?.id).toBe("u1");
    expect(await c.updateUser("u2", { role: "developer", tenant: 3, passwordHash: "h", totpSecret: "S", recoveryCodes: ["a", "b"], totpStep: 7,
      oidcIssuer: "https://idp.test", oidcSubject: "sub-1" }, NOW + 5)).toBe(true);
    expect(await c.getUser({ issuer: "https://idp.test", subject: "sub-1" })).toEqual({ ...user("u2", "amy@example.test", "developer"),
      tenant: 3, passwordHash: "h", totpSecret: "S", recoveryCodes: ["a", "b"], totpStep: 7, oidcIssuer: "https://idp.test", oidcSubject: "sub-1", updatedAt: NOW + 5 });
    // One subject, one user.
    await expect(c.updateUser("u1", { oidcIssuer: "https://idp.test", oidcSubject: "sub-1" }, NOW)).rejects.toThrow();
    expect((await c.listUsers()).map((u) => u.email)).toEqual(["amy@example.test", "zed@example.test"]);
    await c.insertInvitation({ tokenHash: "inv", userId: "u2", createdAt: NOW, expiresAt: NOW + 10 });
    expect(await c.takeInvitation("inv")).toEqual({ tokenHash: "inv", userId: "u2", createdAt: NOW, expiresAt: NOW + 10 });
    expect(await c.takeInvitation("inv")).toBeNull();
    await c.insertInvitation({ tokenHash: "inv2", userId: "u2", createdAt: NOW, expiresAt: NOW + 10 });
    await c.insertSession({ tokenHash: "s1", keyId: null, userId: "u2", csrf: "c", createdAt: NOW, expiresAt: NOW + 10 });
    expect(await c.getSession("s1")).toEqual({ tokenHash: "s1", keyId: null, userId: "u2", csrf: "c", createdAt: NOW, expiresAt: NOW + 10 });
    await c.insertSession({ tokenHash: "s0", keyId: null, userId: "u1", csrf: "c", createdAt: NOW, expiresAt: NOW + 10 });
    expect(await c.deleteSessions({ userId: "u1" })).toBe(1);
    expect(await c.getSession("s0")).toBeNull();
    expect(await c.getSession("s1")).not.toBeNull();
    expect(await c.deleteUser("u2")).toBe(true);
    expect(await c.deleteUser("u2")).toBe(false);
    expect(await c.getSession("s1")).toBeNull();
    expect(await c.takeInvitation("inv2")).toBeNull();
    expect(await c.getUser({ id: "u2" })).toBeNull();
    await store.close();
  });

  test("the audit log: appended, read newest first by time, actor, action and cursor, expired by age only", async () => {
    const store = await open();
    const c = store.control;
    const e = (at: number, actorKind: "user" | "key" | "cli", actorId: string, action: string) =>
      ({ at, actorKind, actorId, tenant: 0, action, target: `t-${at}`, ip: "127.0.0.1" });
    await c.appendAudit(e(NOW, "cli", "root", "key.create"));
    await c.appendAudit(e(NOW + 1000, "key", "k1", "domain.add"));
    await c.appendAudit(e(NOW + 2000, "user", "u1", "key.revoke"));
    const all = await c.listAudit({ limit: 10 });
    expect(all.map((r) => r.action)).toEqual(["key.revoke", "domain.add", "key.create"]);
    expect(all[0]).toEqual({ id: all[0]!.id, ...e(NOW + 2000, "user", "u1", "key.revoke") });
    expect(all[0]!.id).toBeGreaterThan(all[1]!.id);
    expect((await c.listAudit({ limit: 10, action: "key" })).map((r) => r.action)).toEqual(["key.revoke", "key.create"]);
    expect((await c.listAudit({ limit: 10, action: "key.create" })).length).toBe(1);
    expect((await c.listAudit({ limit: 10, actorKind: "key" })).map((r) => r.actorId)).toEqual(["k1"]);
    expect((await c.listAudit({ limit: 10, actorId: "u1" })).map((r) => r.action)).toEqual(["key.revoke"]);
    expect((await c.listAudit({ limit: 10, from: NOW + 500, to: NOW + 1500 })).map((r) => r.action)).toEqual(["domain.add"]);
    expect((await c.listAudit({ limit: 1, beforeId: all[0]!.id })).map((r) => r.action)).toEqual(["domain.add"]);
    await c.appendAudit({ ...e(NOW + 3000, "key", "k2", "suppression.add"), tenant: 2 });
    expect((await c.listAudit({ limit: 10, tenant: 2 })).map((r) => r.action)).toEqual(["suppression.add"]);
    expect((await c.listAudit({ limit: 10, tenant: 0 })).map((r) => r.action)).toEqual(["key.revoke", "domain.add", "key.create"]);
    expect(await c.expireAudit(NOW + 1500, 10)).toBe(2);
    expect((await c.listAudit({ limit: 10 })).map((r) => r.action)).toEqual(["suppression.add", "key.revoke"]);
    await store.close();
  });
}
