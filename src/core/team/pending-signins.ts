// Sign-ins in progress, kept in the store (not in one process) so that with several nodes the
// callback or the code may reach any of them: an OIDC flow between the redirect and the callback,
// and a provider-proven sign-in waiting for the user's TOTP code. The browser holds a random token
// in a cookie; the store holds its SHA-256. Each lives 10 minutes and is used once. /ui/oidc/start
// needs no sign-in, so what anyone can make wait is bounded: expired ones are forgotten first, then
// a client address may have MAX_PER_CLIENT waiting and the installation MAX_PENDING.
import { createHash, randomBytes } from "node:crypto";
import type { PendingSignIn, SignInStore } from "./store-port.ts";
import { AppError } from "../errors.ts";

export const PENDING_TTL_MS = 10 * 60_000;
export const MAX_PENDING = 10_000;
export const MAX_PER_CLIENT = 20;

type Store = Pick<SignInStore, "insertPendingSignIn" | "takePendingSignIn" | "countPendingSignIns" | "deletePendingSignIns">;
const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export function createPendingSignIns(store: Store, now: () => number, caps = { total: MAX_PENDING, perClient: MAX_PER_CLIENT }) {
  return {
    /** Starts one; returns the token for the browser's cookie. 429 beyond the caps. */
    async open(kind: PendingSignIn["kind"], client: string, fields: { nonce?: string; verifier?: string; userId?: string }): Promise<string> {
      await store.deletePendingSignIns({ expiredBy: now() });
      if ((await store.countPendingSignIns({ client })) >= caps.perClient) {
        throw new AppError("rate_limited", "too many sign-ins in progress from your address: finish one, or retry in 10 minutes");
      }
      if ((await store.countPendingSignIns({})) >= caps.total) throw new AppError("rate_limited", "too many sign-ins in progress: retry in a few minutes");
      const token = randomBytes(24).toString("base64url");
      await store.insertPendingSignIn({ keyHash: hash(token), kind, nonce: fields.nonce ?? "", verifier: fields.verifier ?? "", userId: fields.userId ?? null,
        client, createdAt: now(), expiresAt: now() + PENDING_TTL_MS });
      return token;
    },

    /** Uses one up: null when unknown, already used, expired or of another kind. */
    async take(token: string | null, kind: PendingSignIn["kind"]): Promise<PendingSignIn | null> {
      if (!token) return null;
      const p = await store.takePendingSignIn(hash(token));
      return p && p.kind === kind && p.expiresAt > now() ? p : null;
    },

    /** Puts back a taken one unchanged (a wrong TOTP code may be typed again until it expires; the lockout counts each). */
    restore: (p: PendingSignIn) => store.insertPendingSignIn(p),
  };
}

export type PendingSignIns = ReturnType<typeof createPendingSignIns>;
