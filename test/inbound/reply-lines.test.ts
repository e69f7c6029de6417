// A notice's reply lines (src/inbound/reply-lines.ts): which line holds the reply, and which lines continue it.
import { describe, expect, test } from "bun:test";
import { findDiagnostic, isWithinReply, lineStartWithCode, replyReader, transcriptOf, wholeReply } from "../../src/inbound/reply-lines.ts";
import { parseDiagnostic } from "../../src/inbound/report-fields.ts";

describe("the reply a notice quotes", () => {
  test("indented lines continue a wrapped reply (Postfix)", () => {
    const d = findDiagnostic("host mx.x.example said: 550 5.1.1 <a@x.example>: Recipient address\n    rejected: User unknown (in reply to RCPT TO command)\n\nnext");
    expect(d).toMatchObject({ code: 550, enhancedCode: "5.1.1" });
    expect(d?.text).toContain("rejected: User unknown");
  });
  test("a multi-line reply's lines continue it even without indentation (GMX's \"554-\" lines on a help page)", () => {
    const d = findDiagnostic("554-gmx.net (mxgmx104) Nemesis ESMTP Service not available\n554-No SMTP service\n554-IP address is block listed.\n554 For explanation visit x\nThe mail system");
    expect(d?.code).toBe(554);
    expect(d?.text).toContain("IP address is block listed.");
    expect(d?.text).not.toContain("The mail system");
  });
  test("an unindented line after a reply that is not multi-line does not continue it", () => {
    expect(findDiagnostic("550 5.1.1 User unknown\nReporting-MTA: dns; x")?.text).toBe("550 5.1.1 User unknown");
  });
  test("\"#550\" is Exchange's reply code, but not a URL's fragment (Mimecast's help links)", () => {
    expect(findDiagnostic("x@y.example\n#550 5.1.1 RESOLVER.ADR.RecipNotFound; not found ##")?.code).toBe(550);
    expect(findDiagnostic("Envelope blocked - User Entry - https://community.mimecast.com/docs/DOC-1369#550")?.code).toBeUndefined();
  });
  test("57x is a reply code though RFC 5321 stops at 55x: Courier's and chkuser's \"571 ...\" (masqmail's notice quotes it)", () => {
    const d = findDiagnostic("while connected with mx.x.example, the server replied\n\t571 Delivery not authorized, message refused.\n");
    expect(d).toMatchObject({ code: 571 });
    expect(d?.text).toContain("Delivery not authorized");
    expect(findDiagnostic("Message size 580 KB\n")?.code).toBeUndefined();
  });
  test("a reply code before the address on its line starts that recipient's reply (Sendmail 5)", () => {
    const notice = "554 <a@x.example>... Service unavailable\n";
    expect(lineStartWithCode(notice, notice.indexOf("a@x.example"))).toBe(0);
  });
  test("an address inside a reply's words goes on with that reply; Sendmail 5's \"554 <x>...\" starts its own", () => {
    const yahoo = "554 delivery error: dd Sorry your message to y@x.example cannot be delivered.";
    expect(isWithinReply(yahoo, yahoo.indexOf("y@x.example"))).toBe(true);
    const sendmail = "554 <y@x.example>... Service unavailable";
    expect(isWithinReply(sendmail, sendmail.indexOf("y@x.example"))).toBe(false);
    expect(isWithinReply("<y@x.example>: host mx said:", 1)).toBe(false);
  });
  test("a DSN's fields pasted as text: the Diagnostic-Code holds the reply, not the Status line above it", () => {
    const d = findDiagnostic("Final-Recipient: rfc822; a@x.example\nAction: failed\nStatus: 5.0.0\nRemote-MTA: dns; mx.x.example\n" +
      "Diagnostic-Code: smtp; 550-Verification failed for <s@sender.example>\n    550-No Such User Here\n    550 Sender verify failed\n");
    expect(d?.code).toBe(550);
    expect(d?.text).toContain("Sender verify failed");
  });
});

describe("a multi-line reply cut to its first line in a report's Diagnostic-Code (Sendmail's)", () => {
  // The shape of Sendmail's report of a Gmail refusal (sisimai's lhost-sendmail-34 is one), with a Yahoo reply.
  const first = parseDiagnostic("SMTP; 554-delivery error: dd Sorry your message to a@x.example cannot");
  const transcript = "... while talking to mx.x.example.:\n>>> DATA\n<<< 554-delivery error: dd Sorry your message to a@x.example cannot\n" +
    "<<< 554-be delivered. This account has been disabled or discontinued\n<<< 554 [#102]. - mta115.mail.x.example\n554 5.0.0 Service unavailable\n";
  test("the first line says more lines follow", () => {
    expect(first.continues).toBe(true);
    expect(parseDiagnostic("smtp; 550 5.1.1 no such user").continues).toBeUndefined();
  });
  test("the transcript gives the whole reply", () => {
    expect(wholeReply(first, transcriptOf(transcript))?.text).toBe("554 delivery error: dd Sorry your message to a@x.example cannot be delivered. " +
      "This account has been disabled or discontinued [#102]. - mta115.mail.x.example");
  });
  test("nothing when the text does not hold it, or holds no more than the field", () => {
    expect(wholeReply(first, transcriptOf("The mail system\n"))).toBeUndefined();
    const all = parseDiagnostic("smtp; 550-5.1.1 no such 550 5.1.1 user");
    expect(wholeReply(all, transcriptOf("550-5.1.1 no such\n550 5.1.1 user\n"))).toBeUndefined();
  });
});

describe("a stranger's long line", () => {
  test("a line with an enhanced code and no reply code is cut like a reply (the classifier reads it whole)", () => {
    const d = findDiagnostic(`a@x.example\n#5.1.1 ${"ip ".repeat(100_000)}\n`);
    expect(d).toMatchObject({ type: "text", enhancedCode: "5.1.1" });
    expect(d?.text).toBe(`#5.1.1 ${"ip ".repeat(400)}`.slice(0, 1000));
  });
  test("mentions far along a line of MBs do not each read back to its start", () => {
    const text = `550 x ${"y".repeat(16_000_000)} a@x.example b@x.example\n`;
    const at = text.indexOf("b@x");
    for (let i = 0; i < 20_000; i++) expect([lineStartWithCode(text, at), isWithinReply(text, at)]).toEqual([at, false]);
    expect([lineStartWithCode(text, 6), isWithinReply(text, 6)]).toEqual([0, false]);
  });
});

describe("a notice read from many places at once", () => {
  test("each place reads as the notice from there on does", () => {
    const notice = "If that fails, contact your administrator.\n<host #5.1.1>\nStatus: 5.0.0\nRemote-MTA: dns; 550.x\n" +
      "Diagnostic-Code: smtp; 550 5.1.1 no such user\n    (wrapped)\nmail.local: unknown user: a\n<a@x.example>: 552 full\nwords\n";
    const read = replyReader(notice);
    for (let from = 0; from <= notice.length; from++) expect(read(from)).toEqual(findDiagnostic(notice.slice(from)));
  });
});
