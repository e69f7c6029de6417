// Console: the Team page (owners and admins: list, invite, change a role, remove) and the signed-in
// user's own TOTP enrolment. The rules of who may change whom are core's (core/team/roles.ts);
// an account key with every right stands for the machine's owner here, as it does everywhere else.
import { Elysia } from "elysia";
import { renderSVG } from "uqr";
import type { Principal } from "../../core/model.ts";
import { forbidden, invalid, notFound } from "../../core/errors.ts";
import { managesUsers, type Role } from "../../core/team/roles.ts";
import { ALL_RIGHTS, managesUserOf, rightsOf, teamTenant } from "../../core/permissions.ts";
import { userView } from "../../core/team/users.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { grantRights } from "../grants.ts";
import type { ConsoleDeps } from "./deps.ts";
import { field, requiredField } from "./policy.ts";

/** The role a principal manages the team with: its own, "owner" for an all-rights account key, else refused. */
function actingRole(p: Principal): Role {
  if (p.role) {
    if (!managesUsers(p.role)) throw forbidden("only owners and admins manage the team");
    return p.role;
  }
  if (p.kind === "account" && rightsOf(p, grantRights).size === ALL_RIGHTS.size) return "owner";
  throw forbidden("only owners, admins and account keys with every right manage the team");
}

function userOf(p: Principal): string {
  if (!p.userId) throw invalid("two-factor sign-in belongs to console users; this session was opened with an API key");
  return p.userId;
}

export function teamRoutes(deps: Pick<ConsoleDeps, "team">) {
  // deps.team is read at request time: mounting needs no service (test/api/console/permission.test.ts).
  // Another tenant's user is as unknown as a missing one (core/permissions.ts managesUserOf); oneself is always known.
  const byId = async (id: string, p?: Principal) => {
    const u = await deps.team.users.get(id);
    if (!u || (p && !managesUserOf(p, u))) throw notFound(`user ${id} not found`);
    return u;
  };
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/me", async ({ request }) => {
      const p = principalOf(request);
      return p.userId ? { ...userView(await byId(p.userId)), mustEnrol: Boolean(p.mustEnrol) } : { key: p.keyId };
    }, { permission: { right: "any" } })
    .post("/me/totp", async ({ request }) => {
      const start = await deps.team.enrolment.start(userOf(principalOf(request)));
      // The same URI as a QR code for phones, as an SVG data: URI (the console's CSP allows data: images).
      return { ...start, qr: `data:image/svg+xml;base64,${Buffer.from(renderSVG(start.uri)).toString("base64")}` };
    }, { permission: { right: "any" } })
    .post("/me/totp/confirm", ({ request, body }) => deps.team.enrolment.confirm(userOf(principalOf(request)), requiredField(body, "code")), { permission: { right: "any" } })
    .get("/users", async ({ request }) => {
      const p = principalOf(request);
      actingRole(p);
      return { users: (await deps.team.users.list()).filter((u) => managesUserOf(p, u)) };
    }, { permission: { right: "account.manage", keys: "account" } })
    .post("/users", async ({ request, body }) => {
      const p = principalOf(request);
      // The user is of the tenant the inviter acts for; of every tenant only when the primary invites for itself.
      const r = await deps.team.invitations.invite(actingRole(p), { email: requiredField(body, "email"), role: field(body, "role") || "analyst", tenant: teamTenant(p) ?? null });
      return { user: userView(r.user), link: r.link, sent: r.sent };
    }, { permission: { right: "account.manage", keys: "account" } })
    .put("/users/:id", async ({ request, params, body }) => {
      const p = principalOf(request);
      const u = await byId(params.id, p);
      // Nobody demotes themselves by a slip (the last owner would be gone); another owner or the CLI can.
      if (u.id === p.userId) throw forbidden("you cannot change your own role");
      return userView(await deps.team.users.setRole(actingRole(p), u.email, requiredField(body, "role")));
    }, { permission: { right: "account.manage", keys: "account" } })
    .delete("/users/:id", async ({ request, params }) => {
      const p = principalOf(request);
      const u = await byId(params.id, p);
      if (u.id === p.userId) throw forbidden("you cannot remove yourself; ask another owner, or use `postern user rm` on the machine");
      await deps.team.users.remove(actingRole(p), u.email);
      return { message: "removed", id: u.id };
    }, { permission: { right: "account.manage", keys: "account" } });
}
