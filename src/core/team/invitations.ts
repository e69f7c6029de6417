// Invitations by email (contract §14): an owner or admin names an address and a role; the user is
// created without a password and gets a link valid 7 days, sent through postern's own send path.
// Accepting sets the password and uses the link up. The link is also handed back to the inviter,
// who can pass it on when no domain can send yet.
import type { TeamStore } from "./store-port.ts";
import type { ActingRole, UserService } from "./users.ts";
import { checkPassword, sha256 } from "./users.ts";
import type { AuditWriter } from "../audit.ts";
import { nameActor } from "../actor.ts";
import { invalid } from "../errors.ts";
import { newSecret } from "../ids.ts";

export const INVITATION_TTL_MS = 7 * 86_400_000;

/** Sends one plain-text message; false when it could not be sent (no sending domain, refused). */
export type TeamMailer = (to: string, subject: string, text: string) => Promise<boolean>;

export interface InvitationDeps {
  store: TeamStore;
  users: UserService;
  now: () => number;
  /** `server.public_url`: the link is `<public_url>/ui/#/accept/<token>`. */
  publicUrl: string;
  mail: TeamMailer;
  audit?: AuditWriter;
}

export function createInvitations(deps: InvitationDeps) {
  return {
    async invite(by: ActingRole, opts: { email: string; role: string; tenant?: number | null }) {
      const user = await deps.users.add(by, opts);
      const token = newSecret(24);
      await deps.store.insertInvitation({ tokenHash: sha256(token), userId: user.id, createdAt: deps.now(), expiresAt: deps.now() + INVITATION_TTL_MS });
      const link = `${deps.publicUrl.replace(/\/+$/, "")}/ui/#/accept/${token}`;
      const sent = await deps.mail(user.email, "Your invitation to the postern console",
        `You are invited to the postern console as ${user.role}.\n\nSet your password here (the link works once, for 7 days):\n${link}\n`);
      await deps.audit?.record("user.invite", user.email);
      return { user, link, sent };
    },

    /** Uses an invitation: sets the user's password. Unknown, used or expired links are refused alike. */
    async accept(token: string, password: string) {
      checkPassword(password);
      const inv = await deps.store.takeInvitation(sha256(token));
      const user = inv && inv.expiresAt > deps.now() ? await deps.users.get(inv.userId) : null;
      if (!user) throw invalid("this invitation is unknown, already used or expired: ask for a new one", "token");
      await deps.store.updateUser(user.id, { passwordHash: await Bun.password.hash(password) }, deps.now());
      nameActor({ kind: "user", id: user.id });
      await deps.audit?.record("user.accept", user.email);
      return { email: user.email };
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;
