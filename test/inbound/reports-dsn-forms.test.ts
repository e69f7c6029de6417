// DSN forms parseReport reads (src/inbound/reports.ts): RFC 6533's global form, and groups missing a Status or an
// Action (RFC 3464 §2.3 requires both; MTAs leave one out).
import { describe, expect, test } from "bun:test";
import { parseReport, type BounceReport } from "../../src/inbound/reports.ts";

describe("parseReport: DSN forms", () => {
  test("reads the RFC 6533 message/global-delivery-status form", async () => {
    const raw = [
      "From: MAILER-DAEMON@mx.remote.example",
      "To: b@bounces.example.com",
      "Content-Type: multipart/report; report-type=global-delivery-status; boundary=g",
      "",
      "--g",
      "Content-Type: message/global-delivery-status",
      "",
      "Reporting-MTA: dns; mx.remote.example",
      "",
      "Final-Recipient: utf-8; 用户@例子.example",
      "Action: failed",
      "Status: 5.1.1",
      "",
      "--g--",
      "",
    ].join("\r\n");
    const report = (await parseReport(raw)) as BounceReport;
    expect(report.recipients[0]?.finalRecipient).toBe("用户@例子.example");
    expect(report.recipients[0]?.status).toBe("5.1.1");
  });

  test("derives a missing Status from the Action and a missing Action from the Status", async () => {
    const raw = (fields: string) =>
      `From: MAILER-DAEMON@x.example\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; x.example\n\n${fields}\n\n--b--\n`;
    const noStatus = (await parseReport(raw("Final-Recipient: rfc822; a@x.example\nAction: delayed"))) as BounceReport;
    expect(noStatus.recipients[0]).toMatchObject({ action: "delayed", status: "4.0.0" });
    const noAction = (await parseReport(raw("Final-Recipient: rfc822; <a@x.example>\nStatus: 5.7.1 (policy)"))) as BounceReport;
    expect(noAction.recipients[0]).toMatchObject({ finalRecipient: "a@x.example", action: "failed", status: "5.7.1" });
  });
});
