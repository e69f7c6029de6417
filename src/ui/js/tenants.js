// Tenants (subaccounts): the list with id, name and status, and for owners and admins of every
// tenant (and the primary's account keys) Add, Suspend and Reactivate; and the header's tenant
// switcher of a user of every tenant, which makes this session act for one tenant (the server
// keeps the choice in the session and decides what it may do).
import { get, post, call, enc } from "./api.js";
import { h, field, table, toast, onSubmit, button, actions, pill } from "./dom.js";

export async function tenantsPage(ctx) {
  ctx.view.append(h("h1", {}, "Tenants"), h("p", { class: "hint" },
    "Tenant 0 is the primary account. A suspended tenant is read-only and cannot send; its users and keys can still read."));
  const name = h("input", { autocomplete: "off", required: true, placeholder: "acme", id: "tenant-name" });
  const list = h("section", { class: "card", id: "tenant-list" });
  const setStatus = async (t, status) => { await call("PUT", `/tenants/${enc(t.id)}`, { status }); toast(`${t.name} is ${status}`); await draw(); };
  const draw = async () => {
    const { tenants } = await get("/tenants");
    list.replaceChildren(h("h2", {}, "Tenants"), table(["Id", "Name", "Status", ""], tenants.map((t) => [String(t.id), t.name,
      pill(t.status, t.status === "active" ? "ok" : undefined),
      t.id === 0 || t.status === "terminated" ? "—" : actions(t.status === "active"
        ? button("Suspend", () => setStatus(t, "suspended"), "danger") : button("Reactivate", () => setStatus(t, "active")))])));
  };
  const form = h("form", { class: "card" }, h("h2", {}, "Add a tenant"),
    h("div", { class: "row" }, field("Name", name), h("button", { type: "submit" }, "Add")));
  onSubmit(form, async () => {
    const t = await post("/tenants", { name: name.value.trim() });
    name.value = "";
    toast(`Added tenant ${t.name} (id ${t.id})`);
    await draw();
  });
  ctx.view.append(form, list);
  await draw();
}

/** Fills the header's switcher for a user of every tenant; `changed` runs once the server accepted a choice. */
export async function drawSwitcher(select, session, changed) {
  select.hidden = !session?.switcher;
  if (!session?.switcher) return;
  const { tenants } = await get("/session/tenants");
  const current = session.tenant === null ? "" : String(session.tenant);
  select.replaceChildren(h("option", { value: "" }, "All tenants"),
    ...tenants.map((t) => h("option", { value: String(t.id), selected: String(t.id) === current }, `${t.name} (${t.id})${t.status === "active" ? "" : ` · ${t.status}`}`)));
  select.value = current;
  select.onchange = async () => {
    try { await call("PUT", "/session/tenant", { tenant: select.value === "" ? null : Number(select.value) }); await changed(); }
    catch (err) { toast(err.message); select.value = current; }
  };
}
