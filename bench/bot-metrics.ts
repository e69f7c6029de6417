// Confusion counts and the figures the bot benchmark prints (precision, recall, human
// false-positive rate, Wilson intervals), kept apart from the replay so both stay short.

export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function emptyConfusion(): Confusion {
  return { tp: 0, fp: 0, fn: 0, tn: 0 };
}

export function addOutcome(c: Confusion, isBotTruth: boolean, isBotPredicted: boolean): void {
  if (isBotTruth) isBotPredicted ? c.tp++ : c.fn++;
  else isBotPredicted ? c.fp++ : c.tn++;
}

function ratio(num: number, den: number): number {
  return den === 0 ? NaN : num / den;
}

export function precision(c: Confusion): number {
  return ratio(c.tp, c.tp + c.fp);
}

export function recall(c: Confusion): number {
  return ratio(c.tp, c.tp + c.fn);
}

/** Share of human events called bot. */
export function humanFalsePositiveRate(c: Confusion): number {
  return ratio(c.fp, c.fp + c.tn);
}

/** 95% Wilson score interval for successes/n. */
export function wilson(successes: number, n: number): [number, number] {
  if (n === 0) return [NaN, NaN];
  const z = 1.96;
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function fmt(x: number, digits = 4): string {
  return Number.isNaN(x) ? "  n/a " : x.toFixed(digits);
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

export function confusionRow(label: string, c: Confusion): string {
  const n = c.tp + c.fp + c.fn + c.tn;
  return [
    pad(label, 26),
    pad(String(n), 7),
    pad(fmt(precision(c)), 8),
    pad(fmt(recall(c)), 8),
    pad(fmt(humanFalsePositiveRate(c)), 8),
    `tp=${c.tp} fp=${c.fp} fn=${c.fn} tn=${c.tn}`,
  ].join(" ");
}

export const CONFUSION_HEADER = [
  pad("slice", 26),
  pad("events", 7),
  pad("bot-P", 8),
  pad("bot-R", 8),
  pad("human-FP", 8),
  "counts",
].join(" ");
