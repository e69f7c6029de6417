// Audit log: who changed what, newest first, filtered by actor and action, a page at a time.
// Entries are only read here: nothing in the console (or anywhere) changes or deletes one.
import { get, enc } from "./api.js";
import { h, field, table, button } from "./dom.js";

export async function auditPage(ctx) {
  ctx.view.append(h("h1", {}, "Audit log"),
    h("p", { class: "hint" }, "Every change made through an API, this console or the CLI, with who made it and from where."));
  const actor = h("input", { id: "audit-actor", placeholder: "user, key, cli or an id" });
  const action = h("input", { id: "audit-action", placeholder: "key.create or key" });
  const out = h("div", { id: "audit-list" });
  let cursor = null;
  const draw = async (more) => {
    const qs = [actor.value && `actor=${enc(actor.value.trim())}`, action.value && `action=${enc(action.value.trim())}`,
      more && cursor && `cursor=${enc(cursor)}`, "limit=50"].filter(Boolean).join("&");
    const page = await get(`/audit?${qs}`);
    cursor = page.next_cursor;
    const rows = page.items.map((e) => [e.at.replace("T", " ").replace(/\.\d+Z$/, "Z"), `${e.actor.kind}: ${e.actor.id}`, h("code", {}, e.action), e.target, e.ip]);
    const t = table(["When", "Who", "Action", "Target", "From"], rows, "No entry matches.");
    if (more) out.append(t); else out.replaceChildren(t);
    next.hidden = !cursor;
  };
  const next = button("Older entries", () => draw(true));
  ctx.view.append(h("div", { class: "row card", id: "audit-filter" }, field("Actor", actor), field("Action", action), button("Filter", () => draw(false))),
    out, next);
  await draw(false);
}
