// Team (owners and admins: the users, Invite, a role per user, Remove), Security (the signed-in
// user's TOTP: the otpauth:// URI to enter in an authenticator app, a code to confirm, then ten
// recovery codes shown once) and the page an invitation link opens (choose a password).
import { get, post, call, del, enc } from "./api.js";
import { h, field, select, table, toast, secretBox, onSubmit, button, actions, pill } from "./dom.js";

const ROLES = ["owner", "admin", "developer", "analyst"];

export async function teamPage(ctx) {
  ctx.view.append(h("h1", {}, "Team"), h("p", { class: "hint" },
    "Owners manage everyone; admins invite and remove users other than owners. Developers: keys, webhooks, templates and domains. Analysts: read only."));
  const email = h("input", { type: "email", autocomplete: "off", required: true, placeholder: "name@example.com" });
  const role = select(ROLES.filter((r) => ctx.session.role !== "admin" || r !== "owner"), "analyst");
  const out = h("div");
  const list = h("section", { class: "card" });
  const draw = async () => {
    const { users } = await get("/users");
    list.replaceChildren(h("h2", {}, "Users"), table(["Email", "Role", "Tenant", "TOTP", "Single sign-on", ""], users.map((u) => {
      const pick = select(ROLES, u.role, { "aria-label": `Role of ${u.email}` });
      pick.addEventListener("change", async () => {
        try { await call("PUT", `/users/${enc(u.id)}`, { role: pick.value }); toast(`${u.email} is now ${pick.value}`); }
        catch (err) { pick.value = u.role; toast(err.message); }
      });
      return [u.email, pick, u.tenant ?? "all", u.totp ? pill("on", "ok") : pill("off"), u.oidc ? pill("linked", "ok") : "—",
        actions(button("Remove", async () => { await del(`/users/${enc(u.id)}`); toast(`Removed ${u.email}`); await draw(); }, "danger"))];
    }), "No users yet."));
  };
  const form = h("form", { class: "card" }, h("h2", {}, "Invite"),
    h("div", { class: "row" }, field("Email", email), field("Role", role), h("button", { type: "submit" }, "Invite")), out);
  onSubmit(form, async () => {
    const r = await post("/users", { email: email.value, role: role.value });
    email.value = "";
    out.replaceChildren(h("p", {}, r.sent ? `Invitation sent to ${r.user.email}.` : `No domain can send yet: give ${r.user.email} this link.`),
      secretBox("Invitation link (valid 7 days, once)", r.link));
    await draw();
  });
  ctx.view.append(form, list);
  await draw();
}

export async function securityPage(ctx) {
  ctx.view.append(h("h1", {}, "Security"));
  const me = await get("/me");
  if (!me.email) { ctx.view.append(h("p", {}, "This session was opened with an API key: two-factor sign-in belongs to console users.")); return; }
  const card = h("section", { class: "card" });
  ctx.view.append(card);
  card.append(h("h2", {}, `Two-factor sign-in (TOTP) for ${me.email}`),
    me.mustEnrol ? h("p", { class: "error" }, "This server requires two-factor sign-in: set it up to go on.") : null,
    h("p", {}, "Status: ", me.totp ? pill("on", "ok") : pill("off")));
  const area = h("div");
  card.append(button(me.totp ? "Set up again" : "Set up TOTP", async () => {
    const start = await post("/me/totp");
    const code = h("input", { inputmode: "numeric", autocomplete: "one-time-code", required: true });
    const form = h("form", {}, h("p", {}, "Scan the QR code with your authenticator app, or add the URI (or the secret by hand):"),
      h("img", { src: start.qr, alt: "QR code of the otpauth URI", width: 200, height: 200, id: "totp-qr" }),
      h("p", {}, h("code", { class: "secret-value", id: "totp-uri" }, start.uri)), h("p", {}, "Secret: ", h("code", { id: "totp-secret" }, start.secret)),
      h("div", { class: "row" }, field("Code from the app", code), h("button", { type: "submit" }, "Confirm")));
    onSubmit(form, async () => {
      const r = await post("/me/totp/confirm", { code: code.value.trim() });
      area.replaceChildren(h("p", {}, "Two-factor sign-in is on."), secretBox("Recovery codes (each works once)", r.recovery_codes.join("  ")));
    });
    area.replaceChildren(form);
  }), area);
}

/** The invitation link's page: works signed out. */
export function acceptPage(view, token) {
  const password = h("input", { type: "password", autocomplete: "new-password", required: true, minlength: 12 });
  const out = h("div");
  const form = h("form", { class: "card narrow" }, h("h1", {}, "Accept the invitation"),
    field("New password", password, "12 characters or more"), h("button", { type: "submit" }, "Set password"), out);
  onSubmit(form, async () => {
    const r = await post("/invitations/accept", { token, password: password.value });
    form.replaceChildren(h("h1", {}, "Welcome"), h("p", {}, `Your password is set. Sign in as ${r.email}.`),
      h("p", {}, h("a", { href: "#/" }, "Go to sign-in")));
  });
  view.replaceChildren(form);
}

/** A single sign-on's second step for a user with TOTP: the code (or a recovery code); works signed out. */
export function ssoCodePage(view, signedIn) {
  const code = h("input", { inputmode: "numeric", autocomplete: "one-time-code", required: true, id: "sso-code" });
  const form = h("form", { class: "card narrow", id: "sso-code-form" }, h("h1", {}, "Two-factor sign-in"),
    h("p", {}, "Your identity provider signed you in. Enter the code of your authenticator app (or a recovery code) to finish."),
    field("Code", code), h("button", { type: "submit" }, "Sign in"));
  onSubmit(form, async () => {
    const s = await post("/session", { code: code.value.trim() });
    code.value = "";
    await signedIn(s);
  });
  view.replaceChildren(form);
}
