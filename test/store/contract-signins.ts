// The store contract for sign-ins in progress (core/team/store-port.ts PendingSignIn) and a console
// session's chosen tenant: a pending sign-in is taken once (on any node: `openPeer`), counted in
// all and per client address, forgotten once expired, and removed with its user.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";
import type { PendingSignIn, StoredUser } from "../../src/core/team/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const pending = (keyHash: string, client: string, expiresAt: number, more: Partial<PendingSignIn> = {}): PendingSignIn => ({
  keyHash, kind: "oidc", nonce: `n-${keyHash}`, verifier: `v-${keyHash}`, userId: null, client, createdAt: NOW, expiresAt, ...more });

const user = (id: string): StoredUser => ({ id, email: `${id}@example.test`, role: "analyst", tenant: null, passwordHash: "", totpSecret: "", totpPending: "",
  recoveryCodes: [], totpStep: 0, oidcIssuer: null, oidcSubject: null, createdAt: NOW, updatedAt: NOW });

export function signInContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("pending sign-ins: taken once (by any node), counted per client, expired ones forgotten, gone with their user", async () => {
    const store = await open();
    const c = store.control;
    await c.insertPendingSignIn(pending("a", "10.0.0.1", NOW + 600_000));
    await c.insertPendingSignIn(pending("b", "10.0.0.1", NOW + 10));
    await c.insertPendingSignIn(pending("c", "10.0.0.2", NOW + 600_000));
    await expect(c.insertPendingSignIn(pending("a", "10.0.0.3", NOW))).rejects.toThrow();
    expect(await c.countPendingSignIns({})).toBe(3);
    expect(await c.countPendingSignIns({ client: "10.0.0.1" })).toBe(2);
    expect(await c.countPendingSignIns({ client: "10.0.0.9" })).toBe(0);
    const peer = openPeer ? await openPeer(store) : store;
    expect(await peer.control.takePendingSignIn("a")).toEqual(pending("a", "10.0.0.1", NOW + 600_000));
    expect(await c.takePendingSignIn("a")).toBeNull();
    expect(await c.deletePendingSignIns({ expiredBy: NOW + 10 })).toBe(1);
    expect(await c.takePendingSignIn("b")).toBeNull();
    expect(await c.countPendingSignIns({})).toBe(1);
    await c.insertUser(user("u1"));
    await c.insertPendingSignIn(pending("d", "10.0.0.1", NOW + 600_000, { kind: "code", nonce: "", verifier: "", userId: "u1" }));
    expect((await c.takePendingSignIn("d"))?.userId).toBe("u1");
    await c.insertPendingSignIn(pending("e", "10.0.0.1", NOW + 600_000, { kind: "code", userId: "u1" }));
    await c.deleteUser("u1");
    expect(await c.takePendingSignIn("e")).toBeNull();
    if (peer !== store) await peer.close();
    await store.close();
  });

  test("a console session's chosen tenant is kept, changed and cleared", async () => {
    const store = await open();
    const c = store.control;
    await c.insertSession({ tokenHash: "s1", keyId: null, userId: null, csrf: "c", createdAt: NOW, expiresAt: NOW + 10 });
    expect((await c.getSession("s1"))?.tenant).toBeUndefined();
    expect(await c.setSessionTenant("s1", 3)).toBe(true);
    expect((await c.getSession("s1"))?.tenant).toBe(3);
    expect(await c.setSessionTenant("s1", null)).toBe(true);
    expect((await c.getSession("s1"))?.tenant).toBeUndefined();
    expect(await c.setSessionTenant("nope", 1)).toBe(false);
    await store.close();
  });
}
