// Every real DSN is accepted as a report: sisimai's own maildir (../shared/corpora/sisimai/, BSD
// 2-clause, outside the repository) with the reason sisimai's tests expect per message
// (expected.json). Each message sisimai reads as a bounce must reach postern's reading as a bounce,
// as it would through a VERP return path. (Complaints are not checked here: two of sisimai's, an
// Amazon SES JSON notification and arf-26, are not read as complaints - a matter for the ARF reader.)
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport } from "../../src/inbound/reports.ts";
import { CORPORA_DIR, corpusPresent } from "../helpers/bounce-score.ts";

const DIR = join(CORPORA_DIR, "sisimai");
type Sample = { file: string; expected: { reason: string }[] };
/** sisimai's reasons that are not a failed delivery. */
const NOT_BOUNCES = new Set(["feedback", "vacation", "delivered"]);

describe.skipIf(!corpusPresent(DIR, "expected.json"))("sisimai's maildir, with sisimai's expected reasons", () => {
  test("every bounce is read as a bounce", async () => {
    const samples = (JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as { samples: Sample[] }).samples;
    const wrong: string[] = [];
    for (const s of samples) {
      const reasons = s.expected.map((e) => e.reason);
      if (!reasons.some((r) => !NOT_BOUNCES.has(r))) continue;
      const got = await parseReport(readFileSync(join(DIR, "maildir", s.file)), { trusted: true });
      if (got?.kind !== "bounce") wrong.push(`${s.file}: ${got?.kind ?? "refused"}, sisimai ${reasons.join(",")}`);
    }
    console.log(`sisimai maildir: ${samples.length} samples, ${wrong.length} not read as sisimai reads them`);
    expect(samples.length).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  }, 60_000);
});
