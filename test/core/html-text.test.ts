// The text a mail client shows for HTML (src/core/html-text.ts): HTML-only bounces, inbound webhooks' body-plain and text, and the text parts SendGrid's generate_plain_content and Mailgun's t:text make.
import { describe, expect, test } from "bun:test";
import { htmlToText } from "../../src/core/html-text.ts";

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
    for (const junk of ["<".repeat(200_000), "<pre>".repeat(50_000), "<!--".repeat(50_000), "<p a='".repeat(50_000), "<style".repeat(50_000), "&#9;".repeat(200_000) + "x"]) {
      expect(typeof htmlToText(junk)).toBe("string");
    }
  });
});

test("letters that change length when lowered do not shift what is cut out", () => {
  expect(htmlToText("<p>İİİİ</p><STYLE>x</STYLE><p>550 5.1.1 user unknown</p>")).toBe("İİİİ\n550 5.1.1 user unknown");
});
