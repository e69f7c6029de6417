// An HTML-only bounce gets the verdict of its plain-text twin: the published permanent replies in both, as reports.ts reads them.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport } from "../../src/inbound/reports.ts";
import { verdictFor } from "../../src/inbound/report-handler.ts";

/** The receivers' published permanent replies (test/fixtures/bounces/replies.tsv), each in a notice with no DSN part. */
const replies = readFileSync(join(import.meta.dir, "../fixtures/bounces/replies.tsv"), "utf8").split("\n")
  .filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t")[1] ?? "").filter((r) => /^5\d\d[ -]/.test(r));

const escape = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#39;").replace(/"/g, "&quot;");
function notice(type: "plain" | "html", reply: string, own: boolean): string {
  // The reply after words of the notice's own, or on a line of its own as Exim and Postfix quote it.
  const lines = ["Your message could not be delivered to the following recipient:", "", "r@receiver.example", ...(own ? [reply] : [`Remote server replied: ${reply}`])];
  const body = type === "plain" ? lines.join("\r\n")
    // As webmail and Exchange write them: styled, indented source, entities for quotes and angle brackets.
    : `<html><head><style>p { margin: 0 }</style></head><body>\r\n${lines.map((l) => `  <p>\r\n    ${l ? escape(l) : "&nbsp;"}\r\n  </p>`).join("\r\n")}\r\n</body></html>`;
  return [`From: Mail Delivery System <MAILER-DAEMON@mx.receiver.example>`, "To: bounce@postern.example", "Subject: Undeliverable: hello",
    "MIME-Version: 1.0", `Content-Type: text/${type === "plain" ? "plain" : "html"}; charset=utf-8`, "", body, ""].join("\r\n");
}
async function verdict(raw: string) {
  const report = await parseReport(raw, { trusted: true });
  if (report?.kind !== "bounce") return report?.kind ?? null;
  const r = report.recipients[0]!;
  const v = verdictFor(r, report.reportingMta);
  return `${r.finalRecipient} ${v.kind} ${v.bounceClass}`;
}

describe("an HTML-only notice reads as its plain-text twin", () => {
  test("the file holds the published permanent replies", () => expect(replies.length).toBeGreaterThan(100));
  test("every published permanent reply gets the same verdict in HTML as in plain text", async () => {
    const differ: string[] = [];
    for (const reply of replies) {
      for (const own of [false, true]) {
        const [plain, html] = [await verdict(notice("plain", reply, own)), await verdict(notice("html", reply, own))];
        expect(plain).toMatch(/ (failed|deferred) \d+$/);
        if (plain !== html) differ.push(`${reply.slice(0, 70)}: ${plain} / ${html}`);
      }
    }
    expect(differ).toEqual([]);
  });
});
