// parseReport reads a bounce whatever its layout (#38): a vendor's own label for the delivery-status
// part, blank lines before the first header, a text from the null sender that names nobody; and an
// auto-reply from the null sender (Auto-Submitted: auto-replied, RFC 3834) is still not a bounce.
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

  const notice = (extra = "") => `From: someone@dest.test\r\nTo: b@bounces.example.com\r\nSubject: About your mail\r\n${extra}\r\nThe message you sent could not be handed on.\r\n`;
  test("a text from the null sender to a VERP path is a bounce even when it names nobody", async () => {
    expect(await parseReport(notice(), { trusted: true })).toBeNull();
    const r = (await parseReport(notice(), { trusted: true, nullSender: true })) as BounceReport;
    expect(r.kind).toBe("bounce");
    expect(r.recipients).toHaveLength(1);
  });

  test("an auto-reply from the null sender is not", async () => {
    expect(await parseReport(notice("Auto-Submitted: auto-replied\r\n"), { trusted: true, nullSender: true })).toBeNull();
  });
});

describe("parseReport: the null sender vouches for the outer message only", () => {
  test("a returned message inside a bounce is not read as the bounce", async () => {
    const raw = ["From: MAILER-DAEMON@mx.dest.test", "To: b@bounces.example.com", "Subject: failure notice", "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="B"', "", "--B", "Content-Type: text/plain", "",
      "550 sorry, no mailbox here by that name (#5.1.1 - chkusr)", "--B", "Content-Type: message/rfc822", "",
      "From: news@example.com", "To: r@dest.test", "Subject: hi", "", "Nyaan", "--B--", ""].join("\r\n");
    const r = (await parseReport(raw, { trusted: true, nullSender: true })) as BounceReport;
    expect(r.recipients[0]?.diagnostic?.text).toContain("no mailbox here");
  });
});
