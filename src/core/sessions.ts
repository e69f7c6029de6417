// Web console sessions: signing in with an API key opens a server-side session; the browser only
// holds a random token (in an HttpOnly cookie) and a per-session CSRF token (in page memory). The
// key itself is never stored by the console. A session ends at sign-out, when it expires, or when
// its key is revoked (every request re-derives the principal from the key).
import { createHash } from "node:crypto";
import type { Principal } from "./model.ts";
import type { ControlStore } from "./store-port.ts";
import type { AccessService } from "./access.ts";
import { newSecret } from "./ids.ts";
import { unauthenticated } from "./errors.ts";

/** How long a console session lives after sign-in. */
export const SESSION_TTL_MS = 8 * 3600_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface OpenSession {
  token: string;
  csrf: string;
  expiresAt: number;
  principal: Principal;
}

export interface SessionDeps {
  control: ControlStore;
  access: Pick<AccessService, "authenticate" | "principalForKey">;
  now: () => number;
  ttlMs?: number;
}

export function createSessionService({ control, access, now, ttlMs = SESSION_TTL_MS }: SessionDeps) {
  return {
    /** Checks the key like any API request and opens a session for it (401 for a bad key). */
    async signIn(key: string): Promise<OpenSession> {
      const principal = await access.authenticate(key);
      if (!principal) throw unauthenticated("this key is unknown, malformed or revoked");
      // Sign-in is rare: a good moment to forget expired sessions.
      await control.deleteSessions({ expiredBy: now() });
      const token = newSecret(24);
      const csrf = newSecret(16);
      const expiresAt = now() + ttlMs;
      await control.insertSession({ tokenHash: sha256(token), keyId: principal.keyId, csrf, createdAt: now(), expiresAt });
      return { token, csrf, expiresAt, principal };
    },

    /** The session a cookie token names, with its principal; null when unknown, expired or its key revoked. */
    async resolve(token: string | null | undefined): Promise<Omit<OpenSession, "token"> | null> {
      if (!token) return null;
      const s = await control.getSession(sha256(token));
      if (!s) return null;
      if (s.expiresAt <= now()) {
        await control.deleteSessions({ tokenHash: s.tokenHash });
        return null;
      }
      const principal = s.keyId ? await access.principalForKey(s.keyId) : null;
      return principal ? { csrf: s.csrf, expiresAt: s.expiresAt, principal } : null;
    },

    async signOut(token: string | null | undefined): Promise<void> {
      if (token) await control.deleteSessions({ tokenHash: sha256(token) });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
