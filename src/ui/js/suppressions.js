// Suppressions per domain and type: search by address, Add, Remove, and a CSV import sent in
// chunks with a progress bar (first column the address, optional second column the reason).
import { get, post, del, enc } from "./api.js";
import { h, field, select, table, when, toast, onSubmit, button, actions } from "./dom.js";
import { domainPicker } from "./domains.js";

const TYPES = ["bounces", "unsubscribes", "complaints", "whitelists"];
const CHUNK = 500;

/** Addresses (and reasons) from CSV text; a header row whose first cell has no "@" is skipped. */
export function parseCsv(text) {
  return text.split(/\r?\n/).map((line) => line.split(",").map((c) => c.trim().replace(/^"|"$/g, "")))
    .filter((cells) => cells[0] && cells[0].includes("@"))
    .map(([address, reason]) => ({ address, reason: reason || "imported" }));
}

function importForm(name, onDone) {
  const file = h("input", { type: "file", accept: ".csv,text/csv,text/plain", required: true });
  const type = select(TYPES, "bounces");
  const bar = h("progress", { max: 1, value: 0, hidden: true });
  const note = h("span", { class: "hint", role: "status" });
  const form = h("form", { class: "card" }, h("h2", {}, "CSV import"),
    h("div", { class: "row" }, field("CSV file", file), field("Import as", type), h("button", { type: "submit" }, "Import")), h("p", {}, bar, " ", note));
  return onSubmit(form, async () => {
    const rows = parseCsv(await file.files[0].text());
    if (!rows.length) throw new Error("no addresses found in that file");
    bar.max = rows.length; bar.value = 0; bar.hidden = false;
    for (let i = 0; i < rows.length; i += CHUNK) {
      await post(`/domains/${enc(name)}/suppressions`, { type: type.value, entries: rows.slice(i, i + CHUNK) });
      bar.value = Math.min(rows.length, i + CHUNK);
      note.textContent = `${bar.value} of ${rows.length} imported`;
    }
    toast(`Imported ${rows.length} addresses`);
    await onDone();
  });
}

export async function suppressionsPage(ctx) {
  ctx.view.append(h("h1", {}, "Suppressions"));
  const area = h("div");
  await domainPicker(ctx, async (name) => {
    const q = h("input", { type: "search", name: "q", placeholder: "alice@example.org" });
    const showType = select([["", "all types"], ...TYPES], "");
    const list = h("section", { class: "card" });
    const draw = async () => {
      const page = await get(`/domains/${enc(name)}/suppressions?q=${enc(q.value.trim())}&type=${enc(showType.value)}`);
      list.replaceChildren(h("h2", {}, `Suppressed for ${name}`), table(["Address", "Type", "Reason", "Added", ""], page.items.map((s) => [
        h("code", {}, s.address), s.type, s.reason || h("span", { class: "hint" }, "—"), when(s.createdAt),
        actions(button("Remove", async () => { await del(`/domains/${enc(name)}/suppressions/${enc(s.type)}/${enc(s.address)}`); toast(`Removed ${s.address}`); await draw(); }, "danger")),
      ]), q.value ? "That address is on no list." : "No suppressed addresses."), page.next ? h("p", { class: "hint" }, "Showing the first 50: search for an address to find it.") : null);
    };
    const search = onSubmit(h("form", { class: "row card", role: "search" }, field("Search by address", q), field("Show type", showType),
      h("button", { type: "submit", class: "secondary" }, "Search")), draw);
    const address = h("input", { name: "address", required: true, autocomplete: "off" });
    const type = select(TYPES, "bounces");
    const reason = h("input", { name: "reason", autocomplete: "off" });
    const add = onSubmit(h("form", { class: "card" }, h("h2", {}, "Add an address"),
      h("div", { class: "row" }, field("Address", address), field("Type", type), field("Reason", reason), h("button", { type: "submit" }, "Add"))), async () => {
      await post(`/domains/${enc(name)}/suppressions`, { type: type.value, address: address.value, reason: reason.value });
      toast(`Added ${address.value} to ${type.value}`);
      address.value = ""; reason.value = "";
      await draw();
    });
    area.replaceChildren(search, add, importForm(name, draw), list);
    await draw();
  });
  ctx.view.append(area);
}
