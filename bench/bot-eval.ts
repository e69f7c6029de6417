// Bot-classifier benchmark on the labelled evaluation set: precision/recall/human-FP for opens,
// clicks and overall (with and without the adversarial botnet), the isbot UA baseline, per-family
// and per-hard-case figures, ablations, seed stability and events/s.
// Run: `bun bench/bot-eval.ts [--details]`.

import { isbot } from "isbot";
import { classifyInteraction, createClassifierContext } from "../src/tracking/bot/index.ts";
import { decodeEvalSet, loadEvalSet, type EvalEvent } from "../test/fixtures/bots/eval-set.ts";
import { generateEvalSet } from "../test/fixtures/bots/generate.ts";
import { replayEvalSet, type ReplayOptions, type ReplayedEvent } from "../test/fixtures/bots/replay.ts";
import {
  CONFUSION_HEADER, addOutcome, confusionRow, emptyConfusion, fmt, pad, wilson, type Confusion,
} from "./bot-metrics.ts";

const ADVERSARIAL_FAMILY = "ad-fraud-botnet";
const MIN_BENCH_MS = 1500;
const STABILITY_SEEDS = [1, 2, 3, 4, 5];

type Predict = (r: ReplayedEvent) => boolean;
const byClassifier: Predict = (r) => r.verdict.isBot;
const byIsbot: Predict = (r) => isbot(r.event.userAgent);

function confusionOf(rows: readonly ReplayedEvent[], predict: Predict): Confusion {
  const c = emptyConfusion();
  for (const r of rows) addOutcome(c, r.event.label === "bot", predict(r));
  return c;
}

function printSlices(title: string, rows: readonly ReplayedEvent[], predict: Predict): void {
  const nonAdversarial = rows.filter((r) => r.event.family !== ADVERSARIAL_FAMILY);
  console.log(`\n${title}\n${CONFUSION_HEADER}`);
  for (const kind of ["open", "click"] as const) {
    console.log(confusionRow(`${kind}s`, confusionOf(rows.filter((r) => r.event.kind === kind), predict)));
    console.log(confusionRow(`${kind}s excl. adversarial`, confusionOf(nonAdversarial.filter((r) => r.event.kind === kind), predict)));
  }
  console.log(confusionRow("overall", confusionOf(rows, predict)));
  console.log(confusionRow("overall excl. adversarial", confusionOf(nonAdversarial, predict)));
}

function printSplits(rows: readonly ReplayedEvent[]): void {
  console.log(`\nSplits (classifier; excl. adversarial)\n${CONFUSION_HEADER}`);
  const base = rows.filter((r) => r.event.family !== ADVERSARIAL_FAMILY);
  const slices: [string, (e: EvalEvent) => boolean][] = [
    ["dev", (e) => e.split === "dev"],
    ["test", (e) => e.split === "test"],
    ["held-out variants (bots)", (e) => e.isHeldOut && e.label === "bot"],
    ["test, no held-out", (e) => e.split === "test" && !e.isHeldOut],
  ];
  for (const [name, keep] of slices) console.log(confusionRow(name, confusionOf(base.filter((r) => keep(r.event)), byClassifier)));
}

function groupRate(rows: readonly ReplayedEvent[], key: (e: EvalEvent) => string, isCorrect: Predict): string[] {
  const groups = new Map<string, { n: number; ok: number; unknown: number }>();
  for (const r of rows) {
    const k = key(r.event);
    const g = groups.get(k) ?? { n: 0, ok: 0, unknown: 0 };
    g.n++;
    if (isCorrect(r)) g.ok++;
    if (r.verdict.verdict === "unknown") g.unknown++;
    groups.set(k, g);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, g]) => {
    const [lo, hi] = wilson(g.ok, g.n);
    return `${pad(k, 46)} n=${pad(String(g.n), 6)} ${fmt(g.ok / g.n, 3)}  [${fmt(lo, 3)}, ${fmt(hi, 3)}]  unknown=${g.unknown}`;
  });
}

function printFamilies(rows: readonly ReplayedEvent[]): void {
  const bots = rows.filter((r) => r.event.label === "bot");
  console.log("\nBot recall per family / scenario (95% Wilson CI)");
  for (const line of groupRate(bots, (e) => `${e.kind} ${e.family}/${e.scenario}`, byClassifier)) console.log(line);
  const humans = rows.filter((r) => r.event.label === "human");
  console.log("\nHuman scenarios kept human (95% Wilson CI)");
  for (const line of groupRate(humans, (e) => `${e.kind} ${e.scenario}`, (r) => !r.verdict.isBot)) console.log(line);
}

function printAblations(events: readonly EvalEvent[]): void {
  console.log(`\nAblations (classifier; clicks and opens excl. adversarial)\n${CONFUSION_HEADER}`);
  const variants: [string, ReplayOptions][] = [
    ["full", {}],
    ["without honeypot", { isWithoutHoneypot: true }],
    ["without pattern", { isWithoutPattern: true }],
    ["without MX", { isWithoutMx: true }],
    ["without timing", { isWithoutTiming: true }],
    ["without spread", { isWithoutSpread: true }],
  ];
  for (const [name, options] of variants) {
    const all = replayEvalSet(events, options);
    const rows = all.filter((r) => r.event.family !== ADVERSARIAL_FAMILY);
    console.log(confusionRow(`${name} (clicks)`, confusionOf(rows.filter((r) => r.event.kind === "click"), byClassifier)));
    console.log(confusionRow(`${name} (opens)`, confusionOf(rows.filter((r) => r.event.kind === "open"), byClassifier)));
    // The botnet against every human click: what the cross-message signal buys, and what it costs.
    const botnetOrHuman = all.filter((r) => r.event.kind === "click" && (r.event.family === ADVERSARIAL_FAMILY || r.event.label === "human"));
    console.log(confusionRow(`${name} (botnet vs humans)`, confusionOf(botnetOrHuman, byClassifier)));
  }
}

function printDetails(rows: readonly ReplayedEvent[]): void {
  const tally = (list: readonly ReplayedEvent[], key: (r: ReplayedEvent) => string): void => {
    const counts = new Map<string, number>();
    for (const r of list) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pad(String(n), 6)} ${k}`);
  };
  console.log("\nFalse positives by scenario and reason");
  tally(rows.filter((r) => r.event.label === "human" && r.verdict.isBot), (r) => `${r.event.kind} ${r.event.scenario} <- ${r.verdict.reasons.join(",")}`);
  console.log("\nFalse negatives by family/scenario and reason");
  tally(rows.filter((r) => r.event.label === "bot" && !r.verdict.isBot), (r) => `${r.event.kind} ${r.event.family}/${r.event.scenario} <- ${r.verdict.reasons.join(",")}`);
}

/** Research §3.7: results should hold across seeds (spread <= 0.5 points). */
function printSeedStability(): void {
  console.log(`\nSeed stability (fresh sets, classifier, excl. adversarial)\n${CONFUSION_HEADER}`);
  for (const seed of STABILITY_SEEDS) {
    const rows = replayEvalSet(decodeEvalSet(generateEvalSet(seed))).filter((r) => r.event.family !== ADVERSARIAL_FAMILY);
    console.log(confusionRow(`seed ${seed} clicks`, confusionOf(rows.filter((r) => r.event.kind === "click"), byClassifier)));
    console.log(confusionRow(`seed ${seed} opens`, confusionOf(rows.filter((r) => r.event.kind === "open"), byClassifier)));
  }
}

function measureThroughput(rows: readonly ReplayedEvent[]): number {
  const ctx = createClassifierContext();
  const signals = rows.map((r) => r.signals);
  let classified = 0;
  let sink = 0;
  const start = performance.now();
  while (performance.now() - start < MIN_BENCH_MS) {
    for (const s of signals) sink += classifyInteraction(s, ctx).isBot ? 1 : 0;
    classified += signals.length;
  }
  const seconds = (performance.now() - start) / 1000;
  if (sink < 0) console.log(sink);
  return classified / seconds;
}

const events = await loadEvalSet();
const replayStart = performance.now();
const rows = replayEvalSet(events);
const replayMs = performance.now() - replayStart;
const botShare = (kind: string): string => {
  const list = rows.filter((r) => r.event.kind === kind);
  return fmt(list.filter((r) => r.event.label === "bot").length / list.length, 3);
};
console.log(`Evaluation set: ${events.length} events (${rows.length} opens/clicks; bot share opens ${botShare("open")}, clicks ${botShare("click")})`);
printSlices("Classifier", rows, byClassifier);
printSlices("Baseline: isbot(user agent) 5.2.3", rows, byIsbot);
printSplits(rows);
printFamilies(rows);
printAblations(events);
printSeedStability();
if (process.argv.includes("--details")) printDetails(rows);
const unknown = rows.filter((r) => r.verdict.verdict === "unknown").length;
console.log(`\nVerdict "unknown" (counted as not-bot): ${unknown} events`);
console.log(`Throughput, classifier only (batch, prebuilt signals): ${Math.round(measureThroughput(rows)).toLocaleString("en-US")} events/s`);
console.log(`Throughput, full replay (honeypot memory + tracker + classifier): ${Math.round((rows.length / replayMs) * 1000).toLocaleString("en-US")} events/s`);
