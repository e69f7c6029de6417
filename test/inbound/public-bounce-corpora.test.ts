// Real bounces from other projects' public test suites, scored in the vendors' views on halves
// postern's rules were tuned on and halves they were not (docs/bounces.md, Figures). The messages
// are read from ../shared/corpora/<name>/ and never copied here; the labels are postern's own
// (test/fixtures/bounces/labels/<name>.tsv say how each was given). A corpus that is absent is
// skipped with one message.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPORA_DIR, corpusPresent, figures, pct, scoreMessage, type Expected, type Labelled, type Scored } from "../helpers/bounce-score.ts";

const LABELS = join(import.meta.dir, "../fixtures/bounces/labels");
/** Floors a little under the figures of 2026-11-28 (tune / holdout, every view the same or higher). */
const CORPORA: Record<string, { needs: string; floor: { tune: number; holdout: number }; bodyOnly?: boolean }> = {
  "bounceparser": { needs: "postfix.msg", floor: { tune: 97, holdout: 92 } },
  "flufl-bounce": { needs: "postfix_01.txt", floor: { tune: 97, holdout: 93.5 } },
  "bounce-email": { needs: "tt_bounce_01.txt", floor: { tune: 99, holdout: 99 } },
  "php-bounce-handler": { needs: "1.eml", floor: { tune: 99, holdout: 99 } },
  "crisp-bounce": { needs: "550_5_1_1_no_such_recipient.txt", floor: { tune: 90, holdout: 90 }, bodyOnly: true },
};

/** crisp's fixtures are a bounce's text part alone: it gets the header a mailer daemon's bounce carries. */
const asBounce = (body: Buffer) => Buffer.concat([Buffer.from("From: Mail Delivery System <MAILER-DAEMON@mailer.example>\r\n" +
  "To: bounces@sender.example\r\nSubject: Undelivered Mail Returned to Sender\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"), body]);

function labels(name: string): Labelled[] {
  return readFileSync(join(LABELS, `${name}.tsv`), "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => {
    const [file, split, category, why] = l.split("\t");
    return { file: file!, split: split as Labelled["split"], reasons: [why ?? ""], categories: [category as Expected] };
  });
}

for (const [name, c] of Object.entries(CORPORA)) {
  const dir = join(CORPORA_DIR, name);
  describe.skipIf(!corpusPresent(dir, c.needs))(`${name}: real bounces of another project's suite`, () => {
    for (const split of ["tune", "holdout"] as const) {
      test(`${split}: every view at or above ${c.floor[split]} %`, async () => {
        const scored: Scored[] = [];
        for (const l of labels(name).filter((x) => x.split === split)) scored.push(...(await scoreMessage(dir, l, c.bodyOnly ? asBounce : undefined)));
        const fs = figures(scored);
        for (const f of fs) console.log(`${name} ${split.padEnd(7)} ${f.view.padEnd(34)} ${String(f.right).padStart(3)}/${f.n} ${pct(f).toFixed(1)} %`);
        expect(scored.length).toBeGreaterThan(10);
        for (const f of fs.slice(0, 4)) expect(`${f.view} ${pct(f).toFixed(1)}`).toBe(`${f.view} ${Math.max(pct(f), c.floor[split]).toFixed(1)}`);
        // Nothing labelled a bounce may be refused as not a report.
        expect(scored.filter((s) => s.expected !== "none" && s.category === "none").map((s) => s.file)).toEqual([]);
      });
    }
  });
}
