// API keys (Create key with kind, domain, label and grants; the secret once; the list; Revoke)
// and SMTP credentials per domain (Add credential; the password once; the list; Delete).
import { get, post, del, enc } from "./api.js";
import { h, field, select, table, when, toast, secretBox, onSubmit, button, actions } from "./dom.js";
import { domainPicker } from "./domains.js";

function createKeyForm(ctx, domains, grants, onCreated) {
  const kinds = ctx.session.kind === "account" ? [["domain", "domain (one domain)"], ["account", "account (everything)"]] : [["domain", "domain (one domain)"]];
  const kind = select(kinds, "domain", { name: "kind" });
  const domain = select(domains.map((d) => d.name), domains[0]?.name, { name: "domain" });
  const label = h("input", { name: "label", autocomplete: "off", placeholder: "e.g. billing app" });
  const domainField = field("Domain", domain);
  kind.addEventListener("change", () => { domainField.hidden = kind.value !== "domain"; });
  const boxes = grants.map((g) => h("input", { type: "checkbox", value: g }));
  const out = h("div");
  const form = h("form", { class: "card" }, h("h2", {}, "Create key"),
    h("div", { class: "row" }, field("Kind", kind), domainField, field("Label", label)),
    h("fieldset", {}, h("legend", {}, "Grants (none ticked: every grant of its kind)"), h("div", { class: "grid" }, boxes.map((b) => field(b.value, b)))),
    h("p", {}, h("button", { type: "submit" }, "Create key")), out);
  return onSubmit(form, async () => {
    const created = await post("/keys", { kind: kind.value, domain: kind.value === "domain" ? domain.value : undefined, label: label.value,
      grants: boxes.filter((b) => b.checked).map((b) => b.value) });
    label.value = "";
    boxes.forEach((b) => { b.checked = false; });
    out.replaceChildren(secretBox(`New ${created.kind} key ${created.id}`, created.key));
    await onCreated();
  });
}

export async function keysPage(ctx) {
  ctx.view.append(h("h1", {}, "API keys"));
  const [domains, grants] = await Promise.all([get("/domains"), get("/grants")]);
  const list = h("section", { class: "card" });
  const draw = async () => {
    const keys = await get("/keys");
    list.replaceChildren(h("h2", {}, "Keys"), table(["ID", "Kind", "Domain", "Label", "Grants", "Created", "Last used", ""], keys.map((k) => [
      h("code", {}, k.id), k.kind, k.domain ?? "all", k.label || h("span", { class: "hint" }, "—"),
      k.grants.length ? k.grants.join(", ") : h("span", { class: "hint" }, "all"), when(k.createdAt), when(k.lastUsedAt),
      actions(button("Revoke", async () => { await del(`/keys/${enc(k.id)}`); toast(`Revoked ${k.id}`); await draw(); }, "danger")),
    ]), "No keys."));
  };
  ctx.view.append(createKeyForm(ctx, domains, grants, draw), list);
  await draw();
}

export async function credentialsPage(ctx) {
  ctx.view.append(h("h1", {}, "SMTP credentials"),
    h("p", { class: "hint" }, "Log in for SMTP submission as login@domain with the password shown once here."));
  const area = h("div");
  await domainPicker(ctx, async (name) => {
    const login = h("input", { name: "login", autocomplete: "off", required: true, placeholder: "e.g. app" });
    const password = h("input", { name: "password", type: "password", autocomplete: "new-password" });
    const out = h("div");
    const list = h("section", { class: "card" });
    const draw = async () => {
      const creds = await get(`/domains/${enc(name)}/credentials`);
      list.replaceChildren(h("h2", {}, `Credentials of ${name}`), table(["Login", "Created", ""], creds.map((c) => [
        h("code", {}, c.login), when(c.createdAt),
        actions(button("Delete", async () => { await del(`/domains/${enc(name)}/credentials/${enc(c.login)}`); toast(`Deleted ${c.login}`); await draw(); }, "danger")),
      ]), "No credentials for this domain."));
    };
    const form = h("form", { class: "card" }, h("h2", {}, "Add credential"),
      h("div", { class: "row" }, field("Login", login), field("Password", password, "empty: one is generated"),
        h("button", { type: "submit" }, "Add credential")), out);
    onSubmit(form, async () => {
      const c = await post(`/domains/${enc(name)}/credentials`, { login: login.value, password: password.value || undefined });
      login.value = ""; password.value = "";
      out.replaceChildren(secretBox(`Password for ${c.login}`, c.password));
      await draw();
    });
    area.replaceChildren(form, list);
    await draw();
  });
  ctx.view.append(area);
}
