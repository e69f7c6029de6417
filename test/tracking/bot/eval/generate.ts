// The independent evaluation set: a population, each person's events and each scanner's, sorted
// by time. Nothing here reads the detector's data or rules; the replay that scores it does.

import type { EvalEvent } from "../../../fixtures/bots/eval-set.ts";
import { toEvent } from "./event.ts";
import { personEvents } from "./people.ts";
import { createPopulation } from "./population.ts";
import { createRand } from "./rng.ts";
import { scannerEvents } from "./scanners.ts";

export const INDEPENDENT_SEED = 38_2026;

export function generateIndependentSet(seed = INDEPENDENT_SEED, recipients = 3000, messages = 9000): EvalEvent[] {
  const rand = createRand(seed);
  const events: EvalEvent[] = [];
  for (const msg of createPopulation(rand, recipients, messages)) {
    for (const e of [...personEvents(rand, msg), ...scannerEvents(rand, msg)]) events.push(toEvent(msg, e));
  }
  events.sort((a, b) => a.atMs - b.atMs);
  events.forEach((e, i) => (e.index = i));
  return events;
}
