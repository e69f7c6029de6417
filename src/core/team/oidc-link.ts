// Which user an OpenID Connect sign-in is (contract §14): the one linked to the issuer and subject;
// else, at a subject's first sign-in, the user whose email equals the id_token's *verified* email,
// if that user is not linked to a subject already (a link is never moved); else, with
// `auto_create`, a new analyst; else refused.
import type { TeamStore, StoredUser } from "./store-port.ts";
import type { IdClaims } from "./id-token.ts";
import type { AuditWriter } from "../audit.ts";
import { nameActor } from "../actor.ts";
import { forbidden } from "../errors.ts";
import { newSecret } from "../ids.ts";

export async function userForOidc(claims: IdClaims, opts: { store: TeamStore; now: () => number; autoCreate: boolean; audit?: AuditWriter }): Promise<StoredUser> {
  const { store, now } = opts;
  const linked = await store.getUser({ issuer: claims.iss, subject: claims.sub });
  if (linked) return linked;
  const email = claims.email_verified === true && typeof claims.email === "string" ? claims.email.trim().toLowerCase() : null;
  if (!email) throw forbidden("the identity provider gave no verified email address to match a console user with");
  const existing = await store.getUser({ email });
  if (existing) {
    if (existing.oidcSubject !== null) throw forbidden(`${email} is already linked to another single sign-on identity`);
    await store.updateUser(existing.id, { oidcIssuer: claims.iss, oidcSubject: claims.sub }, now());
    nameActor({ kind: "user", id: existing.id });
    await opts.audit?.record("user.link", email);
    return { ...existing, oidcIssuer: claims.iss, oidcSubject: claims.sub };
  }
  if (!opts.autoCreate) throw forbidden(`no console user is ${email}: ask an owner to invite you`);
  const user: StoredUser = { id: newSecret(8).slice(0, 12), email, role: "analyst", tenant: null, passwordHash: "", totpSecret: "", totpPending: "",
    recoveryCodes: [], totpStep: 0, oidcIssuer: claims.iss, oidcSubject: claims.sub, createdAt: now(), updatedAt: now() };
  await store.insertUser(user);
  nameActor({ kind: "user", id: user.id });
  await opts.audit?.record("user.add", `${email} (single sign-on)`);
  return user;
}
