// Per-recipient fields of a DSN beyond RFC 3464's own (src/inbound/dsn.ts).
import { expect, test } from "bun:test";
import { parseReport } from "../../src/inbound/reports.ts";
import { receiverStatus } from "../../src/inbound/dsn.ts";
import { verdictFor } from "../../src/inbound/report-handler.ts";

const dsn = (fields: string) => Buffer.from("From: Mail Delivery System <MAILER-DAEMON@mx.sender.example>\r\nTo: bounces@sender.example\r\n" +
  "Subject: Delivery Status Notification\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n" +
  "--B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\r\n--B\r\nContent-Type: message/delivery-status\r\n\r\n" +
  "Reporting-MTA: dns; mx.sender.example\r\n\r\n" + fields + "\r\n--B--\r\n");

// Oracle / Sun Messaging Server's form, as quoted in sisimai/p5-sisimai issue 312: the reply only in X-Supplementary-Info.
test("X-Supplementary-Info gives the remote reply where there is no Diagnostic-Code", async () => {
  const report = await parseReport(dsn("Final-recipient: RFC822; a@x.example\r\nAction: failed\r\nStatus: 5.0.0\r\n" +
    "Remote-MTA: dns; x-example.mail.protection.outlook.com\r\nX-Supplementary-Info: <x-example.mail.protection.outlook.com #5.0.0 smtp;\r\n" +
    " 550 5.4.1 [a@x.example]: Recipient address rejected: Access\r\n denied [x.eop-APC01.prod.protection.outlook.com]>\r\n"), { trusted: true });
  expect(report?.kind).toBe("bounce");
  const r = report?.kind === "bounce" ? report.recipients[0] : undefined;
  expect(r?.diagnostic).toMatchObject({ type: "smtp", code: 550, enhancedCode: "5.4.1" });
  expect(r?.diagnostic?.text).toContain("Recipient address rejected: Access denied");
});

test("an X-Supplementary-Info with a long run of spaces inside is read once", async () => {
  const report = await parseReport(dsn("Final-Recipient: rfc822; a@x.example\r\nAction: failed\r\nStatus: 5.0.0\r\n" +
    `X-Supplementary-Info: <mx #5.0.0 smtp; 550 5.1.1 no such${" ".repeat(300_000)}user >  \r\n`), { trusted: true });
  const r = report?.kind === "bounce" ? report.recipients[0] : undefined;
  expect(r?.diagnostic).toMatchObject({ type: "smtp", code: 550, enhancedCode: "5.1.1", text: "550 5.1.1 no such user" });
});

test("a Diagnostic-Code, when there is one, is the reply", async () => {
  const report = await parseReport(dsn("Final-Recipient: rfc822; a@x.example\r\nAction: failed\r\nStatus: 5.1.1\r\n" +
    "Diagnostic-Code: smtp; 550 5.1.1 no such user\r\nX-Supplementary-Info: <mx #5.0.0 smtp; 550 something else>\r\n"), { trusted: true });
  const r = report?.kind === "bounce" ? report.recipients[0] : undefined;
  expect(r?.diagnostic?.text).toBe("550 5.1.1 no such user");
});

/** The one recipient of a failed DSN with this Status and this reply in its Diagnostic-Code. */
async function recipient(status: string, reply: string) {
  const report = await parseReport(dsn(`Final-Recipient: rfc822; a@x.example\r\nAction: failed\r\nStatus: ${status}\r\n` +
    `Diagnostic-Code: SMTP; ${reply}\r\n`), { trusted: true });
  return report?.kind === "bounce" ? report.recipients[0]! : undefined;
}

// Sendmail 8.17 writes Status 5.1.1 ("<r>... User unknown") for every 550 refusal at RCPT TO, 5.2.2 for a 552 and
// 5.1.3 for a 553, and 5.2.0 and 5.1.0 after DATA (test/fixtures/bounces/mta/sendmail*/): the receiver's words decide.
test("a Status that is only the reporting MTA's fixed choice for the reply's code says no more than the code", async () => {
  const prohibited = (await recipient("5.1.1", "550 Administrative prohibition"))!;
  expect(receiverStatus(prohibited)).toBe("5.0.0");
  expect(verdictFor(prohibited).bounceClass).not.toBe(10);
  expect(receiverStatus((await recipient("5.2.2", "552 message rejected by anti-spam engine."))!)).toBe("5.0.0");
  expect(receiverStatus((await recipient("5.1.3", "553 5.3.0 Rejected - see http://www.spamhaus.org"))!)).toBe("5.0.0");
  // After DATA, Sendmail's choice for a 550 is 5.2.0, for a 553 5.1.0.
  expect(receiverStatus((await recipient("5.2.0", "550 5.7.1 Message rejected as spam"))!)).toBe("5.0.0");
  expect(receiverStatus((await recipient("5.1.0", "553 This route requires encryption (TLS)"))!)).toBe("5.0.0");
  // The receiver's own status, or a Status no MTA picks by the code alone, stays.
  expect(receiverStatus((await recipient("5.1.1", "550 5.1.1 no such user"))!)).toBe("5.1.1");
  expect(receiverStatus((await recipient("5.1.1", "550 no such user here"))!)).toBe("5.0.0");
  expect(verdictFor((await recipient("5.1.1", "550 no such user here"))!).bounceClass).toBe(10);
  expect(receiverStatus((await recipient("5.7.1", "550 Administrative prohibition"))!)).toBe("5.7.1");
  expect(receiverStatus((await recipient("5.2.1", "550 account disabled"))!)).toBe("5.2.1");
});

// nullmailer 2.2 (src/send.cc) takes the first "d.d.d" anywhere in the reply as its Status: a receiver's reply quoting
// our address 45.1.1.3, with no status of its own, came back as Status 5.1.1.
test("a Status found only inside an address the reply quotes is no status of the receiver's", async () => {
  const listed = (await recipient("5.1.1", "554 mx.x.example 45.1.1.3 found on one or more DNSBLs"))!;
  expect(receiverStatus(listed)).toBe("5.0.0");
  expect(verdictFor(listed).bounceClass).not.toBe(10);
  expect(receiverStatus((await recipient("4.4.5", "521 <104.4.5.6> is blocked"))!)).toBe("5.0.0");
  // The same digits standing alone, or a status the reply gives itself, stay.
  expect(receiverStatus((await recipient("5.1.1", "554 no such user (#5.1.1)"))!)).toBe("5.1.1");
  expect(receiverStatus((await recipient("5.1.1", "554 5.1.1 no such user at 45.1.1.3"))!)).toBe("5.1.1");
});
