// Reports: what receivers say about a domain's mail. DMARC aggregate reports give the sources
// sending as the domain (this machine's own addresses marked) with their volume and pass rate, and
// the pass rate per day as a bar chart; TLS reports give sessions and failures by receiving MX.
import { get, enc } from "./api.js";
import { h, field, select, table, pill } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const W = 800, H = 220, PAD = { l: 44, r: 12, t: 12, b: 30 };
const pct = (n) => `${Math.round(n * 100)}%`;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** One bar per day: its height the DMARC pass rate, its title the counts. */
export function passChart(days) {
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "DMARC pass rate per day" });
  const y = (v) => H - PAD.b - v * (H - PAD.t - PAD.b);
  for (const t of [0, 0.5, 1]) {
    root.append(svg("line", { x1: PAD.l, x2: W - PAD.r, y1: y(t), y2: y(t), stroke: "#eef0f3" }),
      svg("text", { x: PAD.l - 6, y: y(t) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b6474" }, pct(t)));
  }
  const step = (W - PAD.l - PAD.r) / Math.max(1, days.length);
  days.forEach((d, i) => {
    const rate = d.messages ? d.passed / d.messages : 0;
    const bar = svg("rect", { x: PAD.l + i * step + step * 0.15, y: y(rate), width: step * 0.7, height: H - PAD.b - y(rate), fill: rate >= 0.95 ? "#1a8a3a" : "#c0392b", "data-day": d.day },
      svg("title", {}, `${d.day}: ${d.passed} of ${d.messages} passed`));
    root.append(bar, svg("text", { x: PAD.l + (i + 0.5) * step, y: H - 10, "text-anchor": "middle", "font-size": 11, fill: "#5b6474" }, d.day.slice(5)));
  });
  return root;
}

export async function reportsPage(ctx) {
  ctx.view.append(h("h1", {}, "Reports"), h("p", { class: "hint" }, "DMARC aggregate and TLS reports that receivers sent about the domain (last 30 days)."));
  const domains = await get("/domains");
  if (!domains.length) { ctx.view.append(h("p", {}, "Add a domain first.")); return; }
  const domain = select(domains.map((d) => d.name), domains[0].name);
  const out = h("div");
  const draw = async () => {
    const r = await get(`/reports?domain=${enc(domain.value)}`);
    const sources = table(["Source", "", "Messages", "DMARC pass", "Reported by"], r.sources.map((s) => [
      h("code", {}, s.sourceIp), s.own ? pill("postern", "ok") : pill("other", "warn"), String(s.messages), pct(s.passRate), s.reporters.join(", ")]),
    "No DMARC report yet. Receivers send them daily to the rua= address of the domain's DMARC record.");
    const failures = table(["Receiving MX", "Failure", "Sessions"], r.tlsFailures.map((f) => [f.receivingMx, f.resultType, String(f.sessions)]), "No TLS failure reported.");
    out.replaceChildren(
      h("section", { class: "card" }, h("h2", {}, `Sources sending as ${r.domain} (${r.dmarcReports} report${r.dmarcReports === 1 ? "" : "s"})`), sources),
      h("section", { class: "card" }, h("h2", {}, "DMARC pass rate per day"), r.passByDay.length ? passChart(r.passByDay) : h("p", { class: "hint" }, "No data yet.")),
      h("section", { class: "card" }, h("h2", {}, `TLS (${r.tlsReports} report${r.tlsReports === 1 ? "" : "s"}): ${r.sessions.successful} sessions succeeded, ${r.sessions.failed} failed`), failures));
  };
  domain.addEventListener("change", draw);
  ctx.view.append(h("div", { class: "row card" }, field("Domain", domain)), out);
  await draw();
}
