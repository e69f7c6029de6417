// Stats: accepted, delivered, failed, opened and clicked per hour (last 48) or per day (last 30),
// for one domain or all, drawn as an SVG line chart by this file; bots are left out by the server.
import { get, enc } from "./api.js";
import { h, field, select, table } from "./dom.js";

const SERIES = [["accepted", "#5b6474"], ["delivered", "#1a8a3a"], ["failed", "#c0392b"], ["opened", "#1f5fbf"], ["clicked", "#b7791f"]];
const NS = "http://www.w3.org/2000/svg";
const W = 800, H = 300, PAD = { l: 48, r: 12, t: 12, b: 34 };

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

function label(ms, step) {
  const iso = new Date(ms).toISOString();
  return step < 86400000 ? iso.slice(11, 16) : iso.slice(5, 10);
}

/** The chart: one polyline per series, a y axis with 4 ticks, a few x labels. */
export function chart(data) {
  const max = Math.max(1, ...SERIES.flatMap(([s]) => data.series[s]));
  const n = data.buckets.length;
  const x = (i) => PAD.l + (i * (W - PAD.l - PAD.r)) / Math.max(1, n - 1);
  const y = (v) => H - PAD.b - (v * (H - PAD.t - PAD.b)) / max;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": `Messages per ${data.step < 86400000 ? "hour" : "day"}` });
  for (let t = 0; t <= 4; t++) {
    const v = Math.round((max * t) / 4);
    root.append(svg("line", { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), stroke: "#eef0f3" }),
      svg("text", { x: PAD.l - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b6474" }, String(v)));
  }
  const every = Math.ceil(n / 8);
  data.buckets.forEach((b, i) => {
    if (i % every === 0) root.append(svg("text", { x: x(i), y: H - 12, "text-anchor": "middle", "font-size": 11, fill: "#5b6474" }, label(b, data.step)));
  });
  for (const [s, color] of SERIES) {
    const points = data.series[s].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    root.append(svg("polyline", { points, fill: "none", stroke: color, "stroke-width": 2, "data-series": s }));
  }
  return root;
}

const swatch = (color) => svg("svg", { width: 14, height: 14, "aria-hidden": "true" }, svg("rect", { width: 14, height: 14, rx: 2, fill: color }));

export async function statsPage(ctx) {
  ctx.view.append(h("h1", {}, "Stats"), h("p", { class: "hint" }, "Opens and clicks by bots are left out."));
  const domains = await get("/domains");
  const options = ctx.session.kind === "account" ? [["", "all domains"], ...domains.map((d) => d.name)] : domains.map((d) => d.name);
  const domain = select(options, Array.isArray(options[0]) ? options[0][0] : options[0]);
  const range = select([["hours", "last 48 hours"], ["days", "last 30 days"]], "hours");
  const out = h("section", { class: "card" });
  const draw = async () => {
    const data = await get(`/stats?range=${range.value}${domain.value ? `&domain=${enc(domain.value)}` : ""}`);
    const totals = SERIES.map(([s]) => [s, String(data.series[s].reduce((a, b) => a + b, 0))]);
    out.replaceChildren(h("h2", {}, `${data.domain ?? "All domains"}, per ${range.value === "hours" ? "hour" : "day"}`), chart(data),
      h("div", { class: "legend" }, SERIES.map(([s, c]) => h("span", {}, swatch(c), s))), table(["Event", "Total"], totals));
  };
  domain.addEventListener("change", draw);
  range.addEventListener("change", draw);
  ctx.view.append(h("div", { class: "row card" }, field("Domain", domain), field("Period", range)), out);
  await draw();
}
