// The console's roles (contract §14) as grants of postern's own rights (core/grants.ts), so a
// signed-in user goes through the very permission decision a key does (core/permissions.ts
// `decide`). What sets owner and admin apart (managing users, and owners) is the one rule below.
import { RIGHTS, type Right } from "../grants.ts";

export const ROLES = ["owner", "admin", "developer", "analyst"] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (r: string): r is Role => (ROLES as readonly string[]).includes(r);

const READS: Right[] = RIGHTS.filter((r) => r.endsWith(".read"));

/** A developer: keys, webhooks, templates, domains and their settings, sending; reads the rest. */
const DEVELOPER: Right[] = [...READS, "mail.send", "keys.manage", "credentials.manage", "webhooks.manage", "templates.manage",
  "domains.manage", "validation.use", "bots.use"];

/** The rights each role holds. Owners and admins hold every right; users.manage is checked by mayManageUser. */
export function rightsOfRole(role: Role): Right[] {
  switch (role) {
    case "owner":
    case "admin": return [...RIGHTS];
    case "developer": return DEVELOPER;
    case "analyst": return READS;
  }
}

/** May a user of role `mine` manage the team at all (see the Team page, invite, remove)? */
export const managesUsers = (mine: Role) => mine === "owner" || mine === "admin";

/**
 * May `mine` add, change or remove a user who is (or would become) `theirs`? Owners: anyone.
 * Admins: everyone but owners, and never a user's role (they invite and remove).
 */
export function mayManageUser(mine: Role, target: { role: Role; newRole?: Role }): boolean {
  if (mine === "owner") return true;
  if (mine !== "admin") return false;
  if (target.role === "owner" || target.newRole === "owner") return false;
  return target.newRole === undefined || target.newRole === target.role;
}
