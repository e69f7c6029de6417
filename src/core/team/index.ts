// The team's services, built once by app.ts: users, TOTP enrolment and invitations. Invitations
// go out through the send service like any mail, from `[console] invite_from` or, when empty,
// postmaster@ the first active domain.
import type { ControlStore } from "../store-port.ts";
import type { SendService } from "../send.ts";
import type { Domain } from "../model.ts";
import type { AuditWriter } from "../audit.ts";
import { createUserService, type UserService } from "./users.ts";
import type { StoredUser } from "./store-port.ts";
import { createPendingSignIns } from "./pending-signins.ts";
import { createTotpEnrolment } from "./enrolment.ts";
import { createInvitations, type TeamMailer } from "./invitations.ts";
import { createOidcClient } from "./oidc.ts";
import { userForOidc } from "./oidc-link.ts";

export interface TeamDeps {
  control: ControlStore;
  now: () => number;
  audit?: AuditWriter;
  publicUrl: string;
  inviteFrom: string;
  sender: Pick<SendService, "send">;
  domains: { list(): Promise<Domain[]> };
  /** [console.oidc]; no single sign-on when its issuer is empty. */
  oidc?: { issuer: string; client_id: string; client_secret: string; auto_create: boolean };
  fetch?: typeof fetch;
}

/**
 * Single sign-on: the client and the linking rule, as sign-in steps for the console. A user with
 * TOTP is not signed in by the provider alone: the callback leaves a "code" sign-in waiting (in
 * the store, 10 minutes) that their code finishes, with the password sign-in's rules and lockout.
 */
function oidcSignIn(deps: TeamDeps, users: UserService) {
  const o = deps.oidc;
  if (!o?.issuer) return null;
  const pending = createPendingSignIns(deps.control, deps.now);
  const client = createOidcClient({ issuer: o.issuer, clientId: o.client_id, clientSecret: o.client_secret,
    redirectUri: `${deps.publicUrl.replace(/\/+$/, "")}/ui/oidc/callback` }, { now: deps.now, fetch: deps.fetch, pending });
  return {
    /** `client`: the browser's address (the pending sign-ins per address are capped). */
    start: (client_: string) => client.start(client_),
    /** The callback: the linked user, and for a user with TOTP the token of the code step still to come. */
    async finish(query: URLSearchParams, cookieState: string | null, client_: string): Promise<{ user: StoredUser; codeToken?: string }> {
      const user = await userForOidc(await client.finish(query, cookieState), { store: deps.control, now: deps.now, autoCreate: o.auto_create, audit: deps.audit });
      return user.totpSecret ? { user, codeToken: await pending.open("code", client_, { userId: user.id }) } : { user };
    },
    /** The code step's user (null: unknown, used or expired), with a way to put it back after a wrong code. */
    async takeCode(token: string | null): Promise<{ user: StoredUser; restore: () => Promise<void> } | null> {
      const p = await pending.take(token, "code");
      const user = p?.userId ? await deps.control.getUser({ id: p.userId }) : null;
      return p && user ? { user, restore: () => pending.restore(p) } : null;
    },
    /** The second factor, as the password sign-in checks it. */
    code: (user: StoredUser, code: string | undefined) => users.secondFactor(user, code),
  };
}

export function createTeam(deps: TeamDeps) {
  const users = createUserService({ store: deps.control, now: deps.now, audit: deps.audit });
  const mail: TeamMailer = async (to, subject, text) => {
    const active = deps.inviteFrom ? null : await firstActive(deps.domains);
    const from = deps.inviteFrom || (active ? `postmaster@${active}` : "");
    if (!from) return false;
    const domain = from.slice(from.lastIndexOf("@") + 1).toLowerCase();
    const principal = { accountId: 1, keyId: "", kind: "account" as const, domain: null, grants: [] };
    try {
      await deps.sender.send(principal, { domain, from: { email: from, name: "postern" }, source: "console", isTransactional: true,
        envelopes: [{ to: [{ email: to }], subject, text }] });
      return true;
    } catch {
      return false;
    }
  };
  return {
    users,
    enrolment: createTotpEnrolment({ store: deps.control, now: deps.now, audit: deps.audit }),
    invitations: createInvitations({ store: deps.control, users, now: deps.now, publicUrl: deps.publicUrl, mail, audit: deps.audit }),
    oidc: oidcSignIn(deps, users),
  };
}

async function firstActive(domains: TeamDeps["domains"]): Promise<string | null> {
  return (await domains.list()).find((d) => d.state === "active")?.name ?? null;
}

export type Team = ReturnType<typeof createTeam>;
