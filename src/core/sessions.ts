// Web console sessions: signing in with an API key, or as a console user (core/team: email and
// password, TOTP, OpenID Connect), opens a server-side session; the browser only holds a random
// token (in an HttpOnly cookie) and a per-session CSRF token (in page memory). The key or password
// itself is never stored by the console. A session ends at sign-out, when it expires, or when its
// key is revoked or its user removed (every request re-derives the principal).
import { createHash } from "node:crypto";
import type { Principal } from "./model.ts";
import type { ControlStore } from "./store-port.ts";
import type { AccessService } from "./access.ts";
import type { StoredUser } from "./team/store-port.ts";
import { rightsOfRole } from "./team/roles.ts";
import { newSecret } from "./ids.ts";
import { forbidden, notFound, unauthenticated } from "./errors.ts";
import { actForUser, type Refusal } from "./permissions.ts";
import { PRIMARY_TENANT } from "./tenants.ts";
import { nameActor } from "./actor.ts";
import type { AuditWriter } from "./audit.ts";

/** How long a console session lives after sign-in. */
export const SESSION_TTL_MS = 8 * 3600_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface OpenSession {
  token: string;
  csrf: string;
  expiresAt: number;
  principal: Principal;
  /** A user of every tenant: may choose one tenant to act for (the console's tenant switcher). */
  switcher?: boolean;
}

export interface SessionDeps {
  control: ControlStore;
  access: Pick<AccessService, "authenticate" | "principalForKey">;
  now: () => number;
  ttlMs?: number;
  /** [console] require_totp: a user without TOTP may only enrol. */
  requireTotp?: boolean;
  audit?: AuditWriter;
}

/**
 * A console user as a principal: the role's rights as grants of postern's own rights, so `decide`
 * treats it as a key. A membership of every tenant reads them all; one of a tenant acts for it
 * (docs/tenants.md; the console's lookups then hide other tenants' domains).
 */
export function principalOfUser(u: StoredUser, accountId: number, requireTotp = false): Principal {
  return { accountId, keyId: "", kind: "account", domain: null, grants: rightsOfRole(u.role), userId: u.id, role: u.role, membership: u.tenant,
    ...(u.tenant === null ? { readAll: true } : { tenant: u.tenant }),
    ...(requireTotp && !u.totpSecret ? { mustEnrol: true } : {}) };
}

export function createSessionService({ control, access, now, ttlMs = SESSION_TTL_MS, requireTotp = false, audit }: SessionDeps) {
  let accountId: number | null = null;
  const account = async () => (accountId ??= (await control.getAccount())?.id ?? 1);

  /** The user acting for their tenant, or the one `chosen` names (core/permissions.ts actForUser decides). */
  async function userActing(u: StoredUser, chosen: number | null | undefined): Promise<Principal | Refusal> {
    const [primary, membership] = await Promise.all([control.getTenant({ id: PRIMARY_TENANT }),
      u.tenant === null ? null : control.getTenant({ id: u.tenant })]);
    if (!primary || (u.tenant !== null && !membership)) return { reason: "tenant", tenant: String(u.tenant) };
    const named = chosen === null || chosen === undefined ? "absent" : await control.getTenant({ id: chosen });
    return actForUser(principalOfUser(u, await account(), requireTotp), membership, primary, named, () => control.listDomains());
  }

  async function open(principal: Principal, owner: { keyId: string | null; userId: string | null }): Promise<OpenSession> {
    // Sign-in is rare: a good moment to forget expired sessions.
    await control.deleteSessions({ expiredBy: now() });
    const token = newSecret(24);
    const csrf = newSecret(16);
    const expiresAt = now() + ttlMs;
    await control.insertSession({ tokenHash: sha256(token), ...owner, csrf, createdAt: now(), expiresAt });
    return { token, csrf, expiresAt, principal };
  }

  return {
    /** Checks the key like any API request and opens a session for it (401 for a bad key). */
    async signIn(key: string): Promise<OpenSession> {
      const principal = await access.authenticate(key);
      if (!principal) throw unauthenticated("this key is unknown, malformed or revoked");
      return open(principal, { keyId: principal.keyId, userId: null });
    },

    /** Opens a session for a user whose sign-in was proven (password and code, or OIDC); recorded as theirs. */
    async signInUser(u: StoredUser, how: string): Promise<OpenSession> {
      const principal = await userActing(u, null);
      if ("reason" in principal) throw forbidden(principal.reason === "terminated" ? `tenant ${principal.tenant} is terminated: its users cannot sign in` : "your membership names no tenant");
      nameActor({ kind: "user", id: u.id });
      // A user of one tenant signs in as that tenant's: its entry is that tenant's.
      await audit?.record(`user.signin`, `${u.email} (${how})`, u.tenant ?? undefined);
      return { ...(await open(principal, { keyId: null, userId: u.id })), switcher: u.tenant === null };
    },

    /** The session a cookie token names, with its principal; null when unknown, expired, its key revoked or its user gone. */
    async resolve(token: string | null | undefined): Promise<Omit<OpenSession, "token"> | null> {
      if (!token) return null;
      const s = await control.getSession(sha256(token));
      if (!s) return null;
      if (s.expiresAt <= now()) {
        await control.deleteSessions({ tokenHash: s.tokenHash });
        return null;
      }
      const user = s.userId ? await control.getUser({ id: s.userId }) : null;
      let acting = user ? await userActing(user, s.tenant) : s.keyId ? await access.principalForKey(s.keyId) : null;
      // A choice the user may no longer make (their membership became one tenant's): back to their own.
      if (user && s.tenant != null && acting && "reason" in acting && acting.reason === "tenant") acting = await userActing(user, null);
      // A refusal (the user's tenant terminated) ends the session as a removed user's does.
      if (!acting || "reason" in acting) return null;
      return { csrf: s.csrf, expiresAt: s.expiresAt, principal: acting, switcher: user?.tenant === null };
    },

    /**
     * The tenant switcher: the session of a user of every tenant acts for `tenant` from now on (an id or a
     * name; null: every tenant again). Refused for anyone else, as a header naming another tenant is.
     */
    async chooseTenant(token: string | null | undefined, tenant: string | null): Promise<void> {
      const s = token ? await control.getSession(sha256(token)) : null;
      const user = s?.userId ? await control.getUser({ id: s.userId }) : null;
      if (!s || !user) throw forbidden("only a console user of every tenant chooses a tenant to act for");
      const t = tenant === null ? null : await control.getTenant(/^\d{1,9}$/.test(tenant) ? { id: Number(tenant) } : { name: tenant });
      if (tenant !== null && !t) throw notFound(`tenant ${tenant} not found`);
      const acting = await userActing(user, t?.id ?? null);
      if ("reason" in acting) throw forbidden("your membership is for one tenant: you may not act for another");
      await control.setSessionTenant(s.tokenHash, t?.id ?? null);
      // Acting for a customer starts here: recorded under the tenant chosen (every tenant again: the primary).
      await audit?.record("session.tenant", t ? t.name : "every tenant", t?.id ?? PRIMARY_TENANT);
    },

    async signOut(token: string | null | undefined): Promise<void> {
      if (token) await control.deleteSessions({ tokenHash: sha256(token) });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
