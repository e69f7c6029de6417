// Scores the detector on the independent set: clicks only (the target), replayed causally
// through the real classifier and its stateful helpers, per scanner family and per human scenario.
// scoreVerdicts also scores verdicts reached elsewhere (api-path.test.ts: the running product's).

import type { ClassifierContext } from "../../../../src/tracking/bot/index.ts";
import type { EvalEvent } from "../../../fixtures/bots/eval-set.ts";
import { replayEvalSet } from "../../../fixtures/bots/replay.ts";
import { generateIndependentSet } from "./generate.ts";

export interface Tally { tp: number; fp: number; fn: number; tn: number }

export interface Score {
  all: Tally;
  /** Recall per scanner family, and share called bot per human scenario. */
  families: Map<string, Tally>;
  scenarios: Map<string, Tally>;
}

function add(t: Tally, isBot: boolean, calledBot: boolean): void {
  if (isBot) calledBot ? t.tp++ : t.fn++;
  else calledBot ? t.fp++ : t.tn++;
}

const empty = (): Tally => ({ tp: 0, fp: 0, fn: 0, tn: 0 });

/** Tallies the clicks of `rows` (a verdict per event, however it was reached) into `score`. */
export function scoreVerdicts(rows: Iterable<{ event: EvalEvent; isBot: boolean }>, score: Score = { all: empty(), families: new Map(), scenarios: new Map() }): Score {
  for (const { event, isBot: calledBot } of rows) {
    if (event.kind !== "click") continue;
    const isBot = event.label === "bot";
    const key = isBot ? event.family : event.scenario;
    const map = isBot ? score.families : score.scenarios;
    const t = map.get(key) ?? empty();
    map.set(key, t);
    add(t, isBot, calledBot);
    add(score.all, isBot, calledBot);
  }
  return score;
}

export function scoreSeeds(seeds: readonly number[], ctx?: ClassifierContext): Score {
  let score: Score | undefined;
  for (const seed of seeds) {
    const rows = replayEvalSet(generateIndependentSet(seed), ctx ? { ctx } : {}).map((r) => ({ event: r.event, isBot: r.verdict.isBot }));
    score = scoreVerdicts(rows, score);
  }
  return score ?? scoreVerdicts([]);
}

export const recall = (t: Tally) => t.tp / (t.tp + t.fn);
export const precision = (t: Tally) => t.tp / (t.tp + t.fp);
export const humansCalledBot = (t: Tally) => t.fp / (t.fp + t.tn);

/** One line per family and scenario, for the docs and the test's log. */
export function report(s: Score): string {
  const lines = [`clicks: precision ${precision(s.all).toFixed(4)}, recall ${recall(s.all).toFixed(4)}, humans called bot ${(100 * humansCalledBot(s.all)).toFixed(2)}%`];
  for (const [f, t] of [...s.families].sort()) lines.push(`  bot ${f}: recall ${recall(t).toFixed(3)} (n = ${t.tp + t.fn})`);
  for (const [h, t] of [...s.scenarios].sort()) lines.push(`  person ${h}: called bot ${t.fp} of ${t.fp + t.tn}`);
  return lines.join("\n");
}
