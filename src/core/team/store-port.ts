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
