// The committed evaluation set is exactly what the seeded generator produces, contains every family
// and hard human case the research lists, and the classifier meets the research §3.7 gates on it.

import { describe, expect, test } from "bun:test";
import { EVAL_SET_PATH, decodeEvalSet, loadEvalSet, type EvalEvent } from "../../fixtures/bots/eval-set.ts";
import { DEFAULT_SEED, generateEvalSet, serializeEvalSet } from "../../fixtures/bots/generate.ts";
import { replayEvalSet } from "../../fixtures/bots/replay.ts";

const MAX_FIXTURE_BYTES = 2 * 1024 * 1024;
const ADVERSARIAL = "ad-fraud-botnet";

const events = await loadEvalSet();

function gate(rows: ReturnType<typeof replayEvalSet>) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const r of rows) {
    const isBot = r.event.label === "bot";
    if (isBot) r.verdict.isBot ? tp++ : fn++;
    else r.verdict.isBot ? fp++ : tn++;
  }
  return { precision: tp / (tp + fp), recall: tp / (tp + fn), humanFp: fp / (fp + tn) };
}

describe("bot evaluation set", () => {
  test("is reproduced byte for byte by the generator with the default seed", async () => {
    const text = await Bun.file(EVAL_SET_PATH).text();
    expect(text.length).toBeLessThan(MAX_FIXTURE_BYTES);
    expect(serializeEvalSet(generateEvalSet(DEFAULT_SEED))).toBe(text);
  });

  test("a different seed gives a different set", () => {
    const other = decodeEvalSet(generateEvalSet(DEFAULT_SEED + 1));
    expect(other.length).not.toBe(events.length);
  });

  test("contains every family and hard human case from the research", () => {
    const has = (pred: (e: EvalEvent) => boolean) => events.some(pred);
    const families = ["apple-mpp", "gmail-prefetch", "microsoft-defender", "proofpoint", "mimecast", "barracuda",
      "barracuda-sentinel", "cisco", "outlook-preflight", "link-unfurler", "http-tool", ADVERSARIAL];
    for (const f of families) expect(has((e) => e.family === f), f).toBe(true);
    const hard = ["proxied-open-gmail", "proxied-open-yahoo", "proxied-open-owa", "private-relay-click", "azure-vdi",
      "corp-nat", "browser-isolation", "fast-multi-link", "after-honeypot-tap", "forwarded", "fast-reader", "old-browser", "carrier-cgnat", "office-burst"];
    for (const s of hard) expect(has((e) => e.label === "human" && e.scenario === s), s).toBe(true);
    expect(has((e) => e.isHeldOut)).toBe(true);
    expect(has((e) => e.split === "dev") && has((e) => e.split === "test")).toBe(true);
  });

  test("is sorted by time", () => {
    for (let i = 1; i < events.length; i++) expect((events[i]?.atMs ?? 0) >= (events[i - 1]?.atMs ?? 0)).toBe(true);
  });

  test("meets the research gates (bot precision >= 0.99, recall >= 0.95, humans called bots <= 1%)", () => {
    const rows = replayEvalSet(events).filter((r) => r.event.family !== ADVERSARIAL);
    for (const kind of ["open", "click"] as const) {
      const g = gate(rows.filter((r) => r.event.kind === kind));
      expect(g.precision, `${kind} precision`).toBeGreaterThanOrEqual(0.99);
      expect(g.recall, `${kind} recall`).toBeGreaterThanOrEqual(0.95);
      expect(g.humanFp, `${kind} human FP`).toBeLessThanOrEqual(0.01);
    }
  });

  test("the botnet is caught at least half the time, and people behind shared addresses stay people", () => {
    const rows = replayEvalSet(events).filter((r) => r.event.kind === "click");
    const botnet = gate(rows.filter((r) => r.event.family === ADVERSARIAL));
    expect(botnet.recall).toBeGreaterThanOrEqual(0.5);
    for (const [scenario, least] of [["corp-nat", 500], ["carrier-cgnat", 200], ["office-burst", 30]] as const) {
      const people = rows.filter((r) => r.event.label === "human" && r.event.scenario === scenario);
      expect(people.length, scenario).toBeGreaterThanOrEqual(least);
      expect(people.filter((r) => r.verdict.isBot).length / people.length, scenario).toBeLessThanOrEqual(0.005);
    }
  });
});
