// Queue: each destination's state (docs/shaping.md), then recipients waiting by recipient domain, with Retry (try now) and Purge
// (give up: each recipient fails with an event, as `postern queue purge` does).
import { get, post } from "./api.js";
import { h, table, when, toast, button, actions } from "./dom.js";

export async function queuePage(ctx) {
  ctx.view.append(h("h1", {}, "Queue"));
  // Open alerts (docs/alerts.md): only an account session may read them; a domain session sees no card.
  const open = await get("/alerts").catch(() => null);
  if (open) {
    ctx.view.append(h("section", { class: "card", id: "alerts" }, h("h2", {}, "Open alerts"),
      table(["Rule", "State", "Subject", "Value", "Threshold", "Since"], open.alerts.map((a) => [a.rule, a.state, a.subject, String(a.value),
        String(a.threshold), when(Date.parse(a.fired_at))]), "No open alerts.")));
  }
  const dests = h("section", { class: "card" });
  const list = h("section", { class: "card" });
  const draw = async () => {
    const [rows, destinations] = await Promise.all([get("/queue"), get("/queue/destinations")]);
    dests.replaceChildren(h("h2", {}, "Destinations"), table(["Destination", "Provider", "Waiting", "In flight", "Concurrency", "Suspended until", "Last throttle", "MX: TLS policy"],
      destinations.map((d) => [d.name, d.provider ?? "—", String(d.waiting), String(d.in_flight), `${d.concurrency} / ${d.max_concurrency}`,
        d.suspended_until ? when(Date.parse(d.suspended_until)) : "—", d.last_throttle ? h("code", {}, d.last_throttle) : "—",
        (d.mx ?? []).length ? d.mx.map((m) => `${m.host}: ${m.tls_policy}`).join(", ") : "—"]), "No destination has mail waiting."));
    list.replaceChildren(h("h2", {}, "Pending by destination"), table(["Destination", "Queued", "Deferred", "Oldest", "Next attempt", "Last reply", ""],
      rows.map((d) => [d.destination, String(d.queued), String(d.deferred), when(d.oldestAt), when(d.nextAttemptAt),
        d.lastResponse ? h("code", {}, d.lastResponse) : "—",
        actions(
          button("Retry", async () => { const r = await post("/queue/retry", { destination: d.destination }); toast(`${r.retried} recipient(s) due now`); await draw(); }, "secondary"),
          button("Purge", async () => { const r = await post("/queue/purge", { destination: d.destination }); toast(`${r.purged} recipient(s) purged`); await draw(); }, "danger")),
      ]), "The queue is empty."));
  };
  ctx.view.append(dests, list);
  await draw();
  // The HTTPS/STARTTLS certificate (docs/tls.md), when [tls] is configured.
  const tls = await get("/tls").catch(() => null);
  if (tls && tls.state !== "off") {
    ctx.view.append(h("section", { class: "card" }, h("h2", {}, "Certificate"),
      h("p", {}, `HTTPS and STARTTLS: ${tls.state}`, tls.not_after ? `, valid until ${when(Date.parse(tls.not_after))}` : "",
        tls.error ? h("code", {}, ` ${tls.error}`) : "")));
  }
}
