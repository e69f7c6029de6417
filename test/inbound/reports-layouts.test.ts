// parseReport reads a bounce whatever its layout (#38): a vendor's own label for the delivery-status
// part, blank lines before the first header, a notice that names nobody; and a note that has none of a
// bounce's marks (sender, subject, failure words, codes) is still not one, whatever envelope it came in.
import { describe, expect, test } from "bun:test";
import { parseReport, type BounceReport } from "../../src/inbound/reports.ts";

const dsn = (partType: string) => [
  "From: MAILER-DAEMON@mx.dest.test", "To: b@bounces.example.com", "Subject: Delivery report", "MIME-Version: 1.0",
  'Content-Type: multipart/report; boundary="B"', "", "--B", "Content-Type: text/plain", "", "Your message has encountered a delivery problem.",
  "--B", `Content-Type: ${partType}`, "", "Reporting-MTA: dns; mx.dest.test", "", "Final-Recipient: rfc822; r@dest.test", "Action: failed",
  "Status: 5.9.8", "Diagnostic-Code: X-XWall; 5.9.8 Spam", "--B--", ""].join("\r\n");

describe("parseReport: any layout a bounce comes in", () => {
  test("a vendor's own delivery-status type (XWall's message/xdelivery-status) is read as the DSN fields", async () => {
    const r = (await parseReport(dsn("message/xdelivery-status"), { trusted: true })) as BounceReport;
    expect(r.heuristic).toBe(false);
    expect(r.recipients[0]).toMatchObject({ finalRecipient: "r@dest.test", status: "5.9.8", diagnostic: { type: "x-xwall", text: "5.9.8 Spam" } });
  });

  test("blank lines before the first header do not hide the report", async () => {
    const r = (await parseReport(`\r\n   \r\n${dsn("message/delivery-status")}`, { trusted: true })) as BounceReport;
    expect(r?.kind).toBe("bounce");
    expect(r.report.from).toBe("MAILER-DAEMON@mx.dest.test");
  });

  test("of two parts labelled delivery-status, the one with fields gives the status and the prose one the reason", async () => {
    const raw = ["From: Postmaster@dest.test", "To: b@bounces.example.com", "Subject: Mail System Error - Returned Mail", "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"', "", "--B", "Content-Type: message/delivery-status", "",
      "This message could not be delivered for this reason:", "", "<r@dest.test> does not accept mail from outside senders", "",
      "--B", "Content-Type: message/delivery-status", "", "Reporting-MTA: dns; mx.dest.test", "", "Final-Recipient: rfc822; <r@dest.test>",
      "Action: failed", "Status: 5.3.0", "--B--", ""].join("\r\n");
    const r = (await parseReport(raw, { trusted: true })) as BounceReport;
    expect(r.heuristic).toBe(false);
    expect(r.recipients[0]).toMatchObject({ finalRecipient: "r@dest.test", status: "5.3.0" });
    expect(r.recipients[0]?.diagnostic?.text).toContain("does not accept mail from outside senders");
  });

  const notice = (subject: string, from = "someone@dest.test") =>
    `From: ${from}\r\nTo: b@bounces.example.com\r\nSubject: ${subject}\r\n\r\nThe message you sent could not be handed on.\r\n`;
  test("a notice to a VERP path that names nobody is a bounce by its sender or its subject", async () => {
    for (const [subject, from] of [["FAILED MAIL to x", undefined], ["Mail Delivery Warning", undefined], ["About your mail", "postmaster@dest.test"]] as const) {
      const r = (await parseReport(notice(subject, from), { trusted: true })) as BounceReport;
      expect(r?.kind).toBe("bounce");
      expect(r.recipients).toHaveLength(1);
    }
  });

  test("a person's or an auto-responder's note is not, even from the null sender (RFC 3834 §3.3)", async () => {
    expect(await parseReport(notice("Thank you for your e-mail"), { trusted: true })).toBeNull();
  });
});

describe("parseReport: a bounce's returned message is not the bounce", () => {
  test("a returned message inside a bounce is not read as the bounce", async () => {
    const raw = ["From: MAILER-DAEMON@mx.dest.test", "To: b@bounces.example.com", "Subject: failure notice", "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="B"', "", "--B", "Content-Type: text/plain", "",
      "550 sorry, no mailbox here by that name (#5.1.1 - chkusr)", "--B", "Content-Type: message/rfc822", "",
      "From: news@example.com", "To: r@dest.test", "Subject: hi", "", "Nyaan", "--B--", ""].join("\r\n");
    const r = (await parseReport(raw, { trusted: true })) as BounceReport;
    expect(r.recipients[0]?.diagnostic?.text).toContain("no mailbox here");
  });
});
