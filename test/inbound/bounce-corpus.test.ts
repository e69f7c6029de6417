// Bounces as they really arrive (test/fixtures/bounces/corpus: DSNs and text bounces of Postfix,
// Exim, Sendmail, qmail, Courier, OpenSMTPD, DragonFly, Exchange, IMail, Domino, Gmail, Microsoft,
// Yahoo, AOL, Apple, Zoho, GMX, mail.ru, Yandex, gateways, carriers; reports wrapped in forwarded
// messages; ARF variants; replies that are not bounces), read as postern reads mail that reached a
// VERP return path: every one in the category it really is, and the figures printed per category.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport } from "../../src/inbound/reports.ts";
import { verdictFor } from "../../src/inbound/report-handler.ts";
import { bounceCategory } from "../../src/core/bounce/index.ts";

const DIR = join(import.meta.dir, "../fixtures/bounces/corpus");
const cases = readFileSync(join(DIR, "expected.tsv"), "utf8").split("\n").filter((l) => l && !l.startsWith("#"))
  .map((l) => { const [file, category] = l.split("\t"); return { file: file!, category: category! }; });

/** What postern makes of a message: complaint, none, deferral, or the failure's category. */
async function categoryOf(raw: string): Promise<string> {
  const report = await parseReport(raw, { trusted: true });
  if (!report) return "none";
  if (report.kind === "complaint") return "complaint";
  const r = report.recipients[0];
  if (!r) return "none";
  const v = verdictFor(r, report.reportingMta);
  if (r.action === "delayed") return "deferral";
  return bounceCategory(v.bounceClass);
}

describe("bounce corpus", () => {
  const results: { category: string; ok: boolean }[] = [];
  for (const c of cases) {
    test(`${c.file}: ${c.category}`, async () => {
      const got = await categoryOf(readFileSync(join(DIR, c.file), "utf8"));
      results.push({ category: c.category, ok: got === c.category });
      expect(got).toBe(c.category);
    });
  }

  test("accuracy per category (printed)", () => {
    const by = new Map<string, { n: number; ok: number }>();
    for (const r of results) { const b = by.get(r.category) ?? { n: 0, ok: 0 }; b.n++; if (r.ok) b.ok++; by.set(r.category, b); }
    for (const [category, b] of by) console.log(`bounce corpus: ${category.padEnd(10)} ${b.ok}/${b.n}`);
    expect(results.length).toBe(cases.length);
  });
});
