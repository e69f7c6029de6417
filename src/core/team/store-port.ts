// What the team needs of the control store: console users and their invitations (the audit log's
// storage is audit-port.ts). Exercised by test/store/contract-team.ts on both engines.
import type { Role } from "./roles.ts";

export interface StoredUser {
  id: string;
  email: string;
  role: Role;
  /** The one tenant the membership is for; null: every tenant. */
  tenant: number | null;
  /** argon2id (Bun.password); "" until a password is set (an invitation not yet accepted, an OIDC-only user). */
  passwordHash: string;
  /** Base32 TOTP secret once enrolment is confirmed; "" without TOTP. */
  totpSecret: string;
  /** A secret shown for enrolment and not yet confirmed with a code. */
  totpPending: string;
  /** SHA-256 hashes of the unused recovery codes. */
  recoveryCodes: string[];
  /** The 30-second step of the last code accepted: a code is good once (RFC 6238 §5.2). */
  totpStep: number;
  oidcIssuer: string | null;
  oidcSubject: string | null;
  createdAt: number;
  updatedAt: number;
}

export type UserPatch = Partial<Pick<StoredUser, "role" | "tenant" | "passwordHash" | "totpSecret" | "totpPending" | "recoveryCodes" | "totpStep" | "oidcIssuer" | "oidcSubject">>;

export interface Invitation {
  tokenHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * A sign-in in progress, held in the store so that any node may finish it (docs/team.md): kind
 * "oidc" waits for the provider's callback (its nonce and PKCE verifier); kind "code" is an OIDC
 * sign-in proven by the provider that waits for the user's TOTP code. Keyed by the SHA-256 of the
 * random value the browser's cookie holds; used once; short-lived.
 */
export interface PendingSignIn {
  keyHash: string;
  kind: "oidc" | "code";
  nonce: string;
  verifier: string;
  /** The user a "code" sign-in is for; null for "oidc". */
  userId: string | null;
  /** The client address that started it: the number waiting per address is capped. */
  client: string;
  createdAt: number;
  expiresAt: number;
}

export interface TeamStore {
  insertUser(u: StoredUser): Promise<void>;
  /** By id, by email (case-insensitive: stored lower case) or by OIDC issuer and subject. */
  getUser(q: { id: string } | { email: string } | { issuer: string; subject: string }): Promise<StoredUser | null>;
  /** Every user, by email. */
  listUsers(): Promise<StoredUser[]>;
  updateUser(id: string, patch: UserPatch, now: number): Promise<boolean>;
  /** Deletes the user with its sessions and invitations. */
  deleteUser(id: string): Promise<boolean>;
  insertInvitation(i: Invitation): Promise<void>;
  /** Uses an invitation once: deletes it and returns it (null when unknown); expiry is the caller's to check. */
  takeInvitation(tokenHash: string): Promise<Invitation | null>;
}

/** Sign-ins in progress and a session's chosen tenant (test/store/contract-signins.ts). */
export interface SignInStore {
  insertPendingSignIn(p: PendingSignIn): Promise<void>;
  /** Uses a pending sign-in once: deletes it and returns it (null when unknown); expiry is the caller's to check. */
  takePendingSignIn(keyHash: string): Promise<PendingSignIn | null>;
  /** How many are waiting: every one, or those started from `client`. */
  countPendingSignIns(q: { client?: string }): Promise<number>;
  /** Forgets those that expired by `now`; returns how many went. */
  deletePendingSignIns(q: { expiredBy: number }): Promise<number>;
  /** The tenant a console session acts for (the tenant switcher; null: its membership's own); false when no such session. */
  setSessionTenant(tokenHash: string, tenant: number | null): Promise<boolean>;
}
