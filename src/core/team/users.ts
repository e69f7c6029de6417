// Console users (contract §14): add, list, change a role, reset a password, remove, and check a
// sign-in (argon2id password through Bun.password, then TOTP or a recovery code when enabled).
// Who may change whom is roles.ts's rule; every change goes to the audit log.
import { createHash } from "node:crypto";
import type { TeamStore, StoredUser } from "./store-port.ts";
import type { ControlStore } from "../store-port.ts";
import { isRole, mayManageUser, type Role } from "./roles.ts";
import { matchTotp } from "./totp.ts";
import type { AuditWriter } from "../audit.ts";
import { AppError, conflict, forbidden, invalid, notFound, unauthenticated } from "../errors.ts";
import { newSecret } from "../ids.ts";

export const MIN_USER_PASSWORD = 12;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** A recovery code as stored: its SHA-256, whatever case or separators it was typed with. */
export const recoveryHash = (code: string) => sha256(code.toLowerCase().replace(/[^a-z0-9]/g, ""));

let dummy: Promise<string> | null = null;
/** A hash nobody knows the password of: an unknown email costs the same time as a wrong password. */
const dummyHash = () => (dummy ??= Bun.password.hash(newSecret(16)));

/** A user as `postern user list --json` and the Team page show it. */
export interface UserView { id: string; email: string; role: Role; tenant: number | null; totp: boolean; oidc: boolean }

export const userView = (u: StoredUser): UserView => ({ id: u.id, email: u.email, role: u.role, tenant: u.tenant, totp: u.totpSecret !== "",
  oidc: u.oidcSubject !== null });

export function checkPassword(password: string): string {
  if (password.length < MIN_USER_PASSWORD || password.length > 256) throw invalid(`password must be ${MIN_USER_PASSWORD} to 256 characters`, "password");
  return password;
}

export function checkRole(role: string): Role {
  if (!isRole(role)) throw invalid("role must be owner, admin, developer or analyst", "role");
  return role;
}

export interface UserDeps { store: TeamStore & Pick<ControlStore, "deleteSessions">; now: () => number; audit?: AuditWriter }

/** `by` is the role of who asks (null: the machine's operator through the CLI, who may do anything). */
export type ActingRole = Role | null;

export function createUserService({ store, now, audit }: UserDeps) {
  async function require(email: string): Promise<StoredUser> {
    const u = await store.getUser({ email: email.trim() });
    if (!u) throw notFound(`user ${email} not found`);
    return u;
  }
  const allowed = (by: ActingRole, target: { role: Role; newRole?: Role }) => {
    if (by !== null && !mayManageUser(by, target)) throw forbidden("your role may not make this change to the team");
  };

  return {
    require,
    get: (id: string) => store.getUser({ id }),
    list: async () => (await store.listUsers()).map(userView),

    /** Adds a user; without a password the user can sign in only after an invitation or OIDC. */
    async add(by: ActingRole, opts: { email: string; role: string; tenant?: number | null; password?: string }): Promise<StoredUser> {
      const email = opts.email.trim().toLowerCase();
      if (!EMAIL.test(email)) throw invalid(`"${opts.email}" is not an email address`, "email");
      const role = checkRole(opts.role);
      allowed(by, { role });
      if (await store.getUser({ email })) throw conflict(`user ${email} already exists`);
      const hash = opts.password === undefined ? "" : await Bun.password.hash(checkPassword(opts.password));
      const u: StoredUser = { id: newSecret(8).slice(0, 12), email, role, tenant: opts.tenant ?? null, passwordHash: hash, totpSecret: "", totpPending: "",
        recoveryCodes: [], totpStep: 0, oidcIssuer: null, oidcSubject: null, createdAt: now(), updatedAt: now() };
      await store.insertUser(u);
      await audit?.record("user.add", email, u.tenant ?? undefined);
      return u;
    },

    async setRole(by: ActingRole, email: string, role: string): Promise<StoredUser> {
      const u = await require(email);
      const newRole = checkRole(role);
      allowed(by, { role: u.role, newRole });
      await store.updateUser(u.id, { role: newRole }, now());
      await audit?.record("user.role", u.email);
      return { ...u, role: newRole };
    },

    /** A new password (generated when not given, returned once); the user's sessions end; `totp` also removes the second factor. */
    async reset(email: string, opts: { password?: string; totp?: boolean } = {}): Promise<string> {
      const u = await require(email);
      const password = opts.password === undefined ? newSecret(15) : checkPassword(opts.password);
      await store.updateUser(u.id, { passwordHash: await Bun.password.hash(password), ...(opts.totp ? { totpSecret: "", totpPending: "", recoveryCodes: [] } : {}) }, now());
      await store.deleteSessions({ userId: u.id });
      await audit?.record("user.reset", u.email);
      return password;
    },

    async remove(by: ActingRole, email: string): Promise<void> {
      const u = await require(email);
      allowed(by, { role: u.role });
      await store.deleteUser(u.id);
      await audit?.record("user.remove", u.email);
    },

    /**
     * A sign-in's first factor and, when the user has TOTP, the second (a code, or a recovery code
     * that is used up). Errors: unauthenticated; field "code" when the code is missing or wrong.
     */
    async authenticate(email: string, password: string, code?: string): Promise<StoredUser> {
      const u = await store.getUser({ email: email.trim() });
      const ok = await Bun.password.verify(password, u?.passwordHash || (await dummyHash()));
      if (!u || !ok) throw unauthenticated("wrong email or password");
      return secondFactor(u, code);
    },

    secondFactor,
  };

  /** The second factor of a user whose first was proven (a password, or an OIDC provider): a TOTP or recovery code when TOTP is on. */
  async function secondFactor(u: StoredUser, code?: string): Promise<StoredUser> {
    if (!u.totpSecret) return u;
    if (!code) throw new AppError("unauthenticated", "enter the code of your authenticator app (or a recovery code)", { field: "code" });
    const step = matchTotp(u.totpSecret, code, now(), u.totpStep);
    if (step !== null) {
      await store.updateUser(u.id, { totpStep: step }, now());
      return u;
    }
    const hashed = recoveryHash(code);
    if (u.recoveryCodes.includes(hashed)) {
      await store.updateUser(u.id, { recoveryCodes: u.recoveryCodes.filter((c) => c !== hashed) }, now());
      return u;
    }
    throw new AppError("unauthenticated", "wrong code", { field: "code" });
  }
}

export type UserService = ReturnType<typeof createUserService>;
