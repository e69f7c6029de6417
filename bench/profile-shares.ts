// Reads a CPU profile the server wrote under BENCH_PROFILE (the .cpuprofile beside the markdown)
// and prints where the samples went, counting samples rather than the time between them (a sample
// followed by an idle gap would otherwise carry the gap). Samples up to the last one inside the
// start's warm-up (cli/warm-up.ts) are left out, so the shares are those of the measured run.
//
//   bun bench/profile-shares.ts FILE.cpuprofile [TOP]   self and total shares of the TOP functions (default 40)
//   bun bench/profile-shares.ts FILE.cpuprofile --by-file   self shares summed per source file
//   bun bench/profile-shares.ts FILE.cpuprofile --under TEXT [TOP]   only samples with a frame whose label contains TEXT
import { readFileSync } from "node:fs";

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
const argv = process.argv.slice(2);
const underAt = argv.indexOf("--under");
const under = underAt >= 0 ? argv.splice(underAt, 2)[1] : undefined;
const [file, arg] = argv;
if (!file) { console.error("usage: bun bench/profile-shares.ts FILE.cpuprofile [TOP | --by-file]"); process.exit(2); }
const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[] };
const parent = new Map<number, number>();
const byId = new Map<number, Node>();
for (const n of profile.nodes) { byId.set(n.id, n); for (const c of n.children ?? []) parent.set(c, n.id); }
const stackOf = (id: number) => { const s: Node[] = []; for (let i: number | undefined = id; i !== undefined; i = parent.get(i)) s.push(byId.get(i)!); return s; };
const label = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/(src|cli|node_modules)\//, "$1/")}${n.callFrame.lineNumber >= 0 ? `:${n.callFrame.lineNumber + 1}` : ""}`;

const lastWarm = profile.samples.findLastIndex((id) => stackOf(id).some((n) => n.callFrame.functionName.includes("warmUp")));
const all = profile.samples.slice(lastWarm + 1);
const samples = under ? all.filter((id) => stackOf(id).some((n) => label(n).includes(under))) : all;
const self = new Map<string, number>();
const total = new Map<string, number>();
for (const id of samples) {
  const stack = stackOf(id);
  const key = arg === "--by-file" ? stack[0]!.callFrame.url.replace(/^.*\/(src|cli|node_modules)\//, "$1/") || "[native]" : label(stack[0]!);
  self.set(key, (self.get(key) ?? 0) + 1);
  for (const l of new Set(stack.map(label))) total.set(l, (total.get(l) ?? 0) + 1);
}
const pctOf = (n: number) => `${((100 * n) / all.length).toFixed(1).padStart(5)} %`;
console.log(`${all.length} samples after the warm-up (${lastWarm + 1} before)${under ? `, ${samples.length} under "${under}" (shares of all)` : ""}`);
const top = Number(arg) || 40;
console.log("self:");
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pctOf(v)}  ${k}`);
if (arg !== "--by-file") {
  console.log("total (self and callees):");
  for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pctOf(v)}  ${k}`);
}
