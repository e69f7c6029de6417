// Messages: one search box (recipient address, message id or tag) and a message page listing its
// events in order, with the remote server's replies, bounce classes and bot verdicts.
import { get, enc } from "./api.js";
import { h, field, table, pill, when, onSubmit } from "./dom.js";

const KIND = { delivered: "ok", failed: "bad", rejected: "bad", deferred: "warn" };
let lastQuery = "";

export async function messagesPage(ctx) {
  ctx.view.append(h("h1", {}, "Messages"));
  const q = h("input", { type: "search", name: "q", value: lastQuery, placeholder: "recipient address, message id or tag", required: true });
  const results = h("section", { class: "card", "aria-live": "polite", hidden: true });
  const run = async () => {
    lastQuery = q.value.trim();
    const rows = await get(`/messages?q=${enc(lastQuery)}`);
    results.hidden = false;
    results.replaceChildren(h("h2", {}, `Results for “${lastQuery}”`), table(["Recipient", "Status", "Message", "Domain", "Last event", "Opens", "Clicks"],
      rows.map((r) => [r.recipient, pill(r.status, KIND[r.status]), h("a", { href: `#/messages/${enc(r.domain)}/${enc(r.messageId)}` }, h("code", {}, r.messageId)),
        r.domain, when(r.lastAt), String(r.opens), String(r.clicks)]), "No messages found."));
  };
  ctx.view.append(onSubmit(h("form", { class: "row card", role: "search" }, field("Search", q), h("button", { type: "submit" }, "Search")), run), results);
  if (lastQuery) await run();
}

function reply(e) {
  // Descriptions usually are the whole reply already ("451 4.7.1 ..."): show the code only when not.
  const whole = e.description && e.code && e.description.startsWith(String(e.code));
  const parts = (whole ? [e.description] : [e.code, e.enhancedCode, e.description]).filter((x) => x !== undefined && x !== null && x !== "");
  return parts.length ? h("code", { class: "reply" }, parts.join(" ")) : null;
}

function details(e) {
  const out = [];
  if (["deferred", "delivered", "failed"].includes(e.type)) {
    const r = reply(e);
    if (r) out.push(h("div", {}, "Remote reply: ", r));
    if (e.mx) out.push(h("div", { class: "hint" }, `MX ${e.mx}${e.tls === true || e.tls?.version ? " over TLS" : ""}${e.tls?.dane === "verified" ? " (DANE verified)" : e.tls?.dane === "failed" ? " (DANE failed)" : ""}${e.attempt ? ` · attempt ${e.attempt}` : ""}`));
    if (e.sendingIp) out.push(h("div", { class: "hint" }, `Sent from ${e.sendingIp}${e.ipPool ? ` (pool ${e.ipPool})` : ""}`));
  } else if (e.description) out.push(h("div", {}, e.description));
  if (e.bounceClass) out.push(h("div", {}, `Bounce: ${e.bounceClass}`));
  if (e.reason) out.push(h("div", { class: "hint" }, `Reason: ${e.reason}`));
  if (e.url) out.push(h("div", {}, "URL: ", h("code", {}, e.url)));
  if (e.type === "opened" || e.type === "clicked") {
    out.push(h("div", {}, e.isBot ? pill(`bot${e.botReasons?.length ? `: ${e.botReasons.join(", ")}` : ""}`, "warn") : pill("human", "ok"),
      e.ip ? h("span", { class: "hint" }, ` from ${e.ip}`) : null));
    if (e.userAgent) out.push(h("div", { class: "hint" }, e.userAgent));
  }
  return h("div", {}, out);
}

export async function messagePage(ctx, domain, id) {
  const m = await get(`/messages/${enc(domain)}/${enc(id)}`);
  ctx.view.append(h("p", {}, h("a", { href: "#/messages" }, "← Messages")),
    h("h1", {}, m.subject || "(no subject)"),
    h("section", { class: "card" }, h("h2", {}, "Message"), table(["Field", "Value"], [
      ["Id", h("code", {}, m.id)], ["Message-ID", h("code", {}, m.messageIdHeader)], ["From", m.from], ["Domain", m.domain],
      ["Accepted", when(m.createdAt)], ["Tags", m.tags.join(", ") || "—"], ["Size", `${m.size} bytes`], ["Sent through", m.source]])),
    h("section", { class: "card" }, h("h2", {}, "Recipients"), table(["Recipient", "Status", "Attempts", "Last reply", "Sent from"], m.recipients.map((r) => [
      r.email, pill(r.status, KIND[r.status]), String(r.attempts), r.lastResponse ? h("code", {}, `${r.lastCode ?? ""} ${r.lastResponse}`) : "—",
      r.sourceIp ? `${r.sourceIp}${r.ipPool ? ` (pool ${r.ipPool})` : ""}` : "—"]))),
    h("section", { class: "card" }, h("h2", {}, "Events"), table(["Time", "Event", "Recipient", "Details"], m.events.map((e) => [
      when(e.timestamp).replace(" UTC", ""), pill(e.type, KIND[e.type]), e.recipient, details(e)]), "No events yet.")),
    h("section", { class: "card" }, h("h2", {}, "Webhook posts"), table(["Created", "Target", "Events", "State", "Attempts", "Answer"], m.webhooks.map((w) => [
      when(w.createdAt).replace(" UTC", ""), h("code", {}, `${w.format} ${w.url}`), w.events.join(", ") || "—", pill(w.status, w.status === "delivered" ? "ok" : w.status === "pending" ? "warn" : "bad"),
      String(w.attempts), w.answer ? h("code", {}, w.answer) : "—"]), "No webhook posts for this message.")));
}
