// Mailgun's stripped-text, stripped-signature and stripped-html (src/webhooks/inbound/strip.ts): the reply without
// what it quotes, and a stranger's message read in one pass however it is shaped.
import { describe, expect, test } from "bun:test";
import { stripHtmlReply, stripReply } from "../../../src/webhooks/inbound/strip.ts";

describe("stripReply", () => {
  test("an attribution line starts the quoted part, also when a client wraps it over two lines", () => {
    expect(stripReply("Sounds good.\r\n\r\nOn Mon, 2 Nov 2026 at 10:01, Bob <bob@example.org> wrote:\r\n> Lunch?")).toEqual({ text: "Sounds good.", signature: "" });
    expect(stripReply("Yes\nOn Mon, 2 Nov 2026 at 10:01, Bob\n<bob@example.org> wrote:\n> Lunch?").text).toBe("Yes");
    expect(stripReply("Oui\nLe lun. 2 nov. 2026, Bob a écrit :\n> Déjeuner ?").text).toBe("Oui");
    expect(stripReply("Ja\n-----Ursprüngliche Nachricht-----\nVon: Bob").text).toBe("Ja");
  });
  test("a run of quoted lines is cut only where it lasts to the end: quotes answered inline stay", () => {
    expect(stripReply("> Lunch?\nYes, at noon.\n> Where?\nThe usual place.").text).toBe("> Lunch?\nYes, at noon.\n> Where?\nThe usual place.");
    expect(stripReply("Noon.\n\n> Lunch?\n>\n> Bob\n\n").text).toBe("Noon.");
  });
  test("the signature follows a \"-- \" line", () => {
    expect(stripReply("Thanks\n-- \nZoë\nPostern Ltd\nOn Mon, Bob wrote:\n> hi")).toEqual({ text: "Thanks", signature: "Zoë\nPostern Ltd" });
  });
  test("hundreds of thousands of quoted lines before a last unquoted one are read once each", () => {
    const body = "> quoted\n".repeat(300_000) + "the last line";
    expect(stripReply(body).text).toBe(body);
  });
});

describe("stripHtmlReply", () => {
  test("blockquotes go; Gmail's and Outlook's quote containers go with all that follows them", () => {
    expect(stripHtmlReply("<p>Yes</p><BLOCKQUOTE type=cite><p>Lunch?</p></blockquote><p>Bye</p>")).toBe("<p>Yes</p><p>Bye</p>");
    expect(stripHtmlReply('<div dir="ltr">Yes</div><div class="gmail_quote"><div>On Mon, Bob wrote:</div>…</div>')).toBe('<div dir="ltr">Yes</div>');
    expect(stripHtmlReply('<p>Yes</p><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Bob</div><div>Lunch?</div>')).toBe("<p>Yes</p>");
    expect(stripHtmlReply("<p>Yes</p><blockquotes>kept</blockquotes>")).toBe("<p>Yes</p><blockquotes>kept</blockquotes>");
  });
  test("a blockquote left open stays, with what follows it", () => {
    expect(stripHtmlReply("<p>Yes</p><blockquote>Lunch?")).toBe("<p>Yes</p><blockquote>Lunch?");
  });
  test("endless openings without their ends are read once each", () => {
    for (const junk of ["<blockquote>".repeat(100_000), "<div ".repeat(200_000), "<div class=x".repeat(100_000)]) expect(stripHtmlReply(junk)).toBe(junk.trim());
  });
});
