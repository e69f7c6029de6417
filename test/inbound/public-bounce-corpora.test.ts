// Real bounces from other projects' public test suites, scored in the vendors' views on halves
// postern's rules were tuned on and halves they were not (docs/bounces.md, Figures). The messages
// are read from ../shared/corpora/<name>/ and never copied here; the labels are postern's own
// (test/fixtures/bounces/labels/<name>.tsv say how each was given). A corpus that is absent is
// skipped with one message.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CORPORA_DIR, corpusPresent, figures, pct, scoreMessage, type Scored } from "../helpers/bounce-score.ts";
import { asBounce, PUBLIC_CORPORA, publicLabels } from "../helpers/public-corpora.ts";

for (const [name, c] of Object.entries(PUBLIC_CORPORA)) {
  const dir = join(CORPORA_DIR, name);
  describe.skipIf(!corpusPresent(dir, c.needs))(`${name}: real bounces of another project's suite`, () => {
    for (const split of ["tune", "holdout"] as const) {
      test(`${split}: every view at or above ${c.floor[split]} %`, async () => {
        const scored: Scored[] = [];
        for (const l of publicLabels(name).filter((x) => x.split === split)) scored.push(...(await scoreMessage(dir, l, c.bodyOnly ? asBounce : undefined)));
        const fs = figures(scored);
        for (const f of fs) console.log(`${name} ${split.padEnd(7)} ${f.view.padEnd(34)} ${String(f.right).padStart(3)}/${f.n} ${pct(f).toFixed(1)} %`);
        expect(scored.length).toBeGreaterThan(3);
        for (const f of fs.slice(0, 4)) expect(`${f.view} ${pct(f).toFixed(1)}`).toBe(`${f.view} ${Math.max(pct(f), c.floor[split]).toFixed(1)}`);
        // Nothing labelled a bounce may be refused as not a report.
        expect(scored.filter((s) => s.expected !== "none" && s.category === "none").map((s) => s.file)).toEqual([]);
      });
    }
  });
}
