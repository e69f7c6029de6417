// The team's services, built once by app.ts: users, TOTP enrolment and invitations. Invitations
// go out through the send service like any mail, from `[console] invite_from` or, when empty,
// postmaster@ the first active domain.
import type { ControlStore } from "../store-port.ts";
import type { SendService } from "../send.ts";
import type { Domain } from "../model.ts";
import type { AuditWriter } from "../audit.ts";
import { createUserService } from "./users.ts";
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

/** Single sign-on: the client and the linking rule, as one sign-in step for the console. */
function oidcSignIn(deps: TeamDeps) {
  const o = deps.oidc;
  if (!o?.issuer) return null;
  const client = createOidcClient({ issuer: o.issuer, clientId: o.client_id, clientSecret: o.client_secret,
    redirectUri: `${deps.publicUrl.replace(/\/+$/, "")}/ui/oidc/callback` }, { now: deps.now, fetch: deps.fetch });
  return {
    start: client.start,
    async finish(query: URLSearchParams, cookieState: string | null) {
      return userForOidc(await client.finish(query, cookieState), { store: deps.control, now: deps.now, autoCreate: o.auto_create, audit: deps.audit });
    },
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
    oidc: oidcSignIn(deps),
  };
}

async function firstActive(domains: TeamDeps["domains"]): Promise<string | null> {
  return (await domains.list()).find((d) => d.state === "active")?.name ?? null;
}

export type Team = ReturnType<typeof createTeam>;
