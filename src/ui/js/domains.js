// Domains: the list (state, zone), Add domain, and a domain's page: each DNS record to publish
// with its live status (ok / missing / wrong, and what DNS holds), Verify, and the settings.
import { get, post, patch, enc } from "./api.js";
import { h, field, table, pill, when, toast, copyButton, onSubmit, button } from "./dom.js";

let chosen = "";

/** A "Domain" select over the domains this session may see; calls onChange(name) now and on change. */
export async function domainPicker(ctx, onChange) {
  const list = await get("/domains");
  if (!list.length) { ctx.view.append(h("p", { class: "muted" }, "No domains yet: add one under Domains.")); return null; }
  if (!list.some((d) => d.name === chosen)) chosen = list[0].name;
  const sel = h("select", { onchange: () => { chosen = sel.value; onChange(chosen); } },
    list.map((d) => h("option", { value: d.name, selected: d.name === chosen }, d.name)));
  ctx.view.append(h("div", { class: "row picker" }, field("Domain", sel)));
  await onChange(chosen);
  return sel;
}

const STATE_KIND = { active: "ok", unverified: "warn", disabled: "bad" };
const STATUS_KIND = { ok: "ok", missing: "bad", wrong: "bad" };

export async function domainsPage(ctx) {
  ctx.view.append(h("h1", {}, "Domains"));
  if (ctx.session.kind === "account") {
    const name = h("input", { name: "name", required: true, placeholder: "mail.example.com", autocomplete: "off" });
    const form = h("form", { class: "row card" }, field("Domain name", name), h("button", { type: "submit" }, "Add domain"));
    ctx.view.append(onSubmit(form, async () => {
      const d = await post("/domains", { name: name.value });
      toast(`Added ${d.name}`);
      ctx.go(`#/domains/${enc(d.name)}`);
    }));
  }
  const list = await get("/domains");
  ctx.view.append(h("section", { class: "card" }, h("h2", {}, "All domains"), table(["Domain", "State", "Zone", "Added"],
    list.map((d) => [h("a", { href: `#/domains/${enc(d.name)}` }, d.name), pill(d.state, STATE_KIND[d.state]), d.zone, when(d.createdAt)]),
    "No domains yet.")));
}

function recordsTable(records) {
  return table(["Type", "Name", "Value to publish", "Status", "Found in DNS"], records.map((r) => [
    r.type, h("code", {}, r.name),
    h("div", {}, h("code", {}, r.priority ? `${r.priority} ${r.value}` : r.value), " ", copyButton(r.value)),
    h("span", {}, pill(r.status, STATUS_KIND[r.status]), r.required ? "" : h("span", { class: "hint" }, " optional")),
    r.lookupFailed ? h("span", { class: "hint" }, "DNS lookup failed") : r.found.length ? h("code", {}, r.found.join("\n")) : h("span", { class: "hint" }, "nothing"),
  ]));
}

const TOGGLES = [["validation", "Validation"], ["botDetection", "Bot detection"], ["openTracking", "Open tracking"],
  ["clickTracking", "Click tracking"], ["unsubscribeTracking", "Unsubscribe tracking"]];

function settingsForm(name, settings) {
  const boxes = TOGGLES.map(([key, label]) => {
    const box = h("input", { type: "checkbox", checked: settings[key] });
    box.addEventListener("change", async () => {
      try { await patch(`/domains/${enc(name)}`, { [key]: box.checked }); toast(`${label} ${box.checked ? "on" : "off"}`); }
      catch (err) { box.checked = !box.checked; toast(err.message); }
    });
    return field(label, box);
  });
  const limit = h("input", { name: "limit", value: settings.limit, placeholder: "e.g. 1000/day (empty: none)" });
  const form = h("form", { class: "row" }, field("Sending limit", limit), h("button", { type: "submit", class: "secondary" }, "Save limit"));
  onSubmit(form, async () => { await patch(`/domains/${enc(name)}`, { limit: limit.value }); toast("Limit saved"); });
  return h("section", { class: "card" }, h("h2", {}, "Settings"), h("div", { class: "row" }, boxes), form);
}

export async function domainPage(ctx, name) {
  const head = h("div");
  const body = h("div");
  ctx.view.append(h("p", {}, h("a", { href: "#/domains" }, "← Domains")), head, body);
  const draw = (d) => {
    head.replaceChildren(h("h1", {}, d.name, " ", pill(d.state, STATE_KIND[d.state])),
      h("p", { class: "muted" }, `Zone ${d.zone} · added ${when(d.createdAt)}`));
    body.replaceChildren(
      h("section", { class: "card" }, h("h2", {}, "DNS records"),
        h("p", { class: "hint" }, "Status is looked up live. Verify activates the domain once every required record is ok."),
        recordsTable(d.records),
        h("p", {}, button("Verify", async () => {
          const v = await post(`/domains/${enc(d.name)}/verify`);
          draw(v);
          toast(v.state === "active" ? `${v.name} is active` : "Not every required record is ok yet");
        }))),
      settingsForm(d.name, d.settings));
  };
  draw(await get(`/domains/${enc(name)}`));
}
