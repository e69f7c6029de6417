// DSNs written by real MTAs run on this machine (scripts/real-mta-dsns.ts: a private OpenSMTPD, Postfix, Exim or Sendmail
// relaying to a sink that answers with the big receivers' published replies), read the way a
// report reaching a VERP return path is read: each in the category its reply should get.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport } from "../../src/inbound/reports.ts";
import { verdictFor } from "../../src/inbound/report-handler.ts";
import { bounceCategory } from "../../src/core/bounce/index.ts";

const DIR = join(import.meta.dir, "../fixtures/bounces/mta");
const mtas = readdirSync(DIR).filter((d) => existsSync(join(DIR, d, "expected.tsv")));

async function categoryOf(raw: Buffer): Promise<string> {
  const report = await parseReport(raw, { trusted: true });
  const r = report?.kind === "bounce" ? report.recipients[0] : undefined;
  if (!r) return "none";
  return r.action === "delayed" ? "deferral" : bounceCategory(verdictFor(r, report?.reportingMta).bounceClass);
}

describe("DSNs of real MTAs", () => {
  for (const mta of mtas) {
    const rows = readFileSync(join(DIR, mta, "expected.tsv"), "utf8").split("\n").filter((l) => l && !l.startsWith("#"))
      .map((l) => l.split("\t") as [string, string, string]);
    test(`${mta}: every DSN in its category`, async () => {
      const wrong: string[] = [];
      for (const [file, category, reply] of rows) {
        const got = await categoryOf(readFileSync(join(DIR, mta, file)));
        if (got !== category) wrong.push(`${file}: ${got} (want ${category}) ← ${reply.slice(0, 100)}`);
      }
      console.log(`real MTA ${mta}: ${rows.length - wrong.length}/${rows.length} in the right category`);
      expect(rows.length).toBeGreaterThan(30);
      expect(wrong).toEqual([]);
    });
  }
});
