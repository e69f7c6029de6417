// Health: the doctor's checks (port 25, PTR, SPF, DKIM, DMARC, bounce MX, tracking, blocklists),
// worst first, each with its one-line fix, and the blocklist watch with first and last seen.
import { get } from "./api.js";
import { h, table, pill } from "./dom.js";

const ORDER = { error: 0, warn: 1, unknown: 2, ok: 3 };
const KIND = { ok: "ok", warn: "warn", error: "bad", unknown: "warn" };

function draw(out, r) {
  const checks = [...r.checks].sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.id.localeCompare(b.id));
  const counts = Object.keys(ORDER).map((s) => `${checks.filter((c) => c.severity === s).length} ${s}`).join(", ");
  out.replaceChildren(
    h("section", { class: "card" }, h("h2", {}, `Checks (${counts}), run ${r.at}`),
      table(["", "Check", "Subject", "Summary", "Fix"], checks.map((c) => [pill(c.severity, KIND[c.severity]), c.id, h("code", {}, c.subject), c.summary, c.fix]),
        "No check ran.")),
    h("section", { class: "card" }, h("h2", {}, "Blocklists"),
      table(["State", "Subject", "Zone", "Answer", "Cause", "First seen", "Last seen"], r.blocklists.map((b) => [
        pill(b.state, b.state === "listed" ? "bad" : b.state === "clear" ? "ok" : "warn"), h("code", {}, b.subject), b.zone, b.answer, b.cause, b.first_seen, b.last_seen]),
      "No blocklist asked yet.")));
}

export async function healthPage(ctx) {
  ctx.view.append(h("h1", {}, "Health"), h("p", { class: "hint" }, "What decides whether mail lands, re-checked on [doctor] interval. `postern doctor` shows the same."));
  const out = h("div");
  const again = h("button", { type: "button" }, "Run the checks now");
  again.addEventListener("click", async () => {
    again.disabled = true;
    try { draw(out, await get("/health?refresh=1")); } finally { again.disabled = false; }
  });
  ctx.view.append(h("div", { class: "row card" }, again), out);
  draw(out, await get("/health"));
}
