// An HTML-only bounce reads as its plain-text twin (src/inbound/html-text.ts): what a client shows, line by line.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlToText } from "../../src/inbound/html-text.ts";
import { parseReport } from "../../src/inbound/reports.ts";
import { verdictFor } from "../../src/inbound/report-handler.ts";

describe("the text a client shows", () => {
  test("paragraphs and breaks are lines, each starting at its first word; an empty paragraph is a blank line", () => {
    const html = "<html><body>\n  <p>\n    Delivery has failed.\n  </p>\n  <p>&nbsp;</p>\n  <div><b>550</b> 5.1.1 user&nbsp;unknown<br>next</div>\n</body></html>";
    expect(htmlToText(html)).toBe("Delivery has failed.\n\n550 5.1.1 user unknown\nnext");
  });
  test("entities are decoded, by name and by number", () => {
    expect(htmlToText("<p>&lt;r@x.example&gt;: doesn&#39;t exist &#x27;here&#x27; &quot;ok&quot; &amp;lt;</p>"))
      .toBe("<r@x.example>: doesn't exist 'here' \"ok\" &lt;");
  });
  test("what is never shown says nothing: head, style, script, title, comments", () => {
    const html = "<html><head><title>550 hidden</title><style>p { color: red }</style></head><body><!-- 554 spam -->" +
      "<script>var code = 552;</script><p>Mailbox full</p><header>shown</header></body></html>";
    expect(htmlToText(html)).toBe("Mailbox full\nshown");
  });
  test("<pre> keeps its lines and indentation; table cells stay apart", () => {
    expect(htmlToText("<p>Transcript:</p><pre>  RCPT TO:&lt;r@x&gt;\n    550 no such user</pre><table><tr><td>Status</td><td>5.1.1</td></tr></table>"))
      .toBe("Transcript:\n\n  RCPT TO:<r@x>\n    550 no such user\n\nStatus 5.1.1");
  });
  test("unclosed and endless markup ends (no search goes back over what was read)", () => {
    for (const junk of ["<".repeat(200_000), "<pre>".repeat(50_000), "<!--".repeat(50_000), "<p a='".repeat(50_000), "<style".repeat(50_000)]) {
      expect(typeof htmlToText(junk)).toBe("string");
    }
  });
});

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

test("letters that change length when lowered do not shift what is cut out", () => {
  expect(htmlToText("<p>İİİİ</p><STYLE>x</STYLE><p>550 5.1.1 user unknown</p>")).toBe("İİİİ\n550 5.1.1 user unknown");
});
