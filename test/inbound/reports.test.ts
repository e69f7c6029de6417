import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport, type BounceReport, type ComplaintReport } from "../../src/inbound/reports.ts";
import { decodeReturnPath } from "../../src/inbound/verp.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/reports");
/** The secret the VERP addresses in the fixtures were made with. */
const FIXTURE_VERP_SECRET = "fixture-verp-secret";

const load = (name: string): Uint8Array => readFileSync(join(FIXTURES, name));
const toCrlf = (raw: Uint8Array): string => new TextDecoder().decode(raw).replace(/\r?\n/g, "\r\n");

interface ExpectedRecipient {
  finalRecipient: string;
  action: string;
  status: string;
  diagnosticType?: string;
  diagnosticCode?: number;
  diagnosticEnhanced?: string;
  diagnosticIncludes?: string;
  remoteMta?: string;
}

interface ExpectedBounce {
  file: string;
  heuristic: boolean;
  recipients: ExpectedRecipient[];
  messageId?: string;
  /** Our message id, recovered through the VERP return path. */
  verpMessageId: string;
  reportingMta?: string;
}

const BOUNCES: ExpectedBounce[] = [
  {
    file: "postfix-hard-5.1.1.eml",
    heuristic: false,
    reportingMta: "mx1.remote.example",
    recipients: [{ finalRecipient: "nosuchuser@remote.example", action: "failed", status: "5.1.1", diagnosticType: "smtp", diagnosticCode: 550, diagnosticEnhanced: "5.1.1", diagnosticIncludes: "User unknown in local recipient table", remoteMta: "mailstore.remote.example" }],
    messageId: "Pf5hRd0aQk2Lm7Nz3Xc9Vb@mail.example.com",
    verpMessageId: "Pf5hRd0aQk2Lm7Nz3Xc9Vb",
  },
  {
    file: "postfix-delayed-4.4.1.eml",
    heuristic: false,
    reportingMta: "relay.remote.example",
    recipients: [{ finalRecipient: "slowpoke@slow.example", action: "delayed", status: "4.4.1", diagnosticType: "x-postfix", diagnosticIncludes: "Connection timed out" }],
    messageId: "Pd4yLt8sWq1Ez6Ru2Ty5Ui@mail.example.com",
    verpMessageId: "Pd4yLt8sWq1Ez6Ru2Ty5Ui",
  },
  {
    file: "o365-5.1.10.eml",
    heuristic: false,
    reportingMta: "DM6PR11MB4321.namprd11.prod.outlook.com",
    recipients: [{ finalRecipient: "nobody@contoso.com", action: "failed", status: "5.1.10", diagnosticType: "smtp", diagnosticCode: 550, diagnosticEnhanced: "5.1.10", diagnosticIncludes: "RESOLVER.ADR.RecipientNotFound" }],
    messageId: "Om3sXn7Dv1Kq9Wp4Jc2Hf0@mail.example.com",
    verpMessageId: "Om3sXn7Dv1Kq9Wp4Jc2Hf0",
  },
  {
    file: "exchange-5.4.1.eml",
    heuristic: false,
    reportingMta: "EX01.corp.remote.local",
    recipients: [
      { finalRecipient: "alice@corp.remote.example", action: "failed", status: "5.4.1", diagnosticCode: 550, diagnosticEnhanced: "5.4.1", diagnosticIncludes: "Access denied. AS(201806281)", remoteMta: "corpremote-example.mail.protection.outlook.com" },
      { finalRecipient: "bob@corp.remote.example", action: "failed", status: "5.2.2", diagnosticCode: 554, diagnosticEnhanced: "5.2.2", diagnosticIncludes: "QuotaExceededException" },
    ],
    messageId: "Ex2cHg5Nb8Mv3Lk6Jh1Gf4@mail.example.com",
    verpMessageId: "Ex2cHg5Nb8Mv3Lk6Jh1Gf4",
  },
  {
    file: "gmail-5.1.1.eml",
    heuristic: false,
    reportingMta: "googlemail.com",
    recipients: [{ finalRecipient: "nosuchuser.abc@gmail.com", action: "failed", status: "5.1.1", diagnosticCode: 550, diagnosticEnhanced: "5.1.1", diagnosticIncludes: "Please try double-checking the recipient's", remoteMta: "gmail-smtp-in.l.google.com" }],
    messageId: "Gm1aIl4Bc7De0Fg3Hi6Jk9@mail.example.com",
    verpMessageId: "Gm1aIl4Bc7De0Fg3Hi6Jk9",
  },
  {
    file: "exim-5.1.1.eml",
    heuristic: false,
    reportingMta: "mail.remote.example",
    // Exim reports Status 5.0.0; the specific code is in the diagnostic.
    recipients: [{ finalRecipient: "gone@remote.example", action: "failed", status: "5.0.0", diagnosticCode: 550, diagnosticEnhanced: "5.1.1", diagnosticIncludes: "User unknown", remoteMta: "mx1.remote.example" }],
    messageId: "Ei9mXs2Rt5Yu8Io1Pa4Sd7@mail.example.com",
    verpMessageId: "Ei9mXs2Rt5Yu8Io1Pa4Sd7",
  },
  {
    file: "qmail-text.eml",
    heuristic: true,
    recipients: [
      { finalRecipient: "nobody@qmail.example", action: "failed", status: "5.1.1", diagnosticType: "text", diagnosticIncludes: "no mailbox here by that name" },
      { finalRecipient: "former@elsewhere.example", action: "failed", status: "5.1.1", diagnosticType: "smtp", diagnosticCode: 550, diagnosticIncludes: "User unknown" },
    ],
    messageId: "Qm8aIl1Zx4Cv7Bn0Mq3We6@mail.example.com",
    verpMessageId: "Qm8aIl1Zx4Cv7Bn0Mq3We6",
  },
  {
    file: "exim-plain-text.eml",
    heuristic: true,
    recipients: [{ finalRecipient: "full@legacy.example", action: "failed", status: "5.2.2", diagnosticType: "smtp", diagnosticCode: 552, diagnosticEnhanced: "5.2.2", diagnosticIncludes: "Mailbox full" }],
    messageId: "Et7xTp0Lk3Jh6Gf9Ds2Az5@mail.example.com",
    verpMessageId: "Et7xTp0Lk3Jh6Gf9Ds2Az5",
  },
  {
    // Exchange lists all recipients first and the diagnostics later.
    file: "exchange-text-only.eml",
    heuristic: true,
    recipients: [
      { finalRecipient: "alice@corp.remote.example", action: "failed", status: "5.4.1", diagnosticType: "smtp", diagnosticCode: 550, diagnosticEnhanced: "5.4.1", diagnosticIncludes: "Access denied. AS(201806281) [BN8NAM12FT045.eop-nam12.prod.protection.outlook.com]" },
      { finalRecipient: "bob@corp.remote.example", action: "failed", status: "5.2.2", diagnosticType: "smtp", diagnosticCode: 554, diagnosticEnhanced: "5.2.2", diagnosticIncludes: "QuotaExceededException" },
    ],
    messageId: "Ex2cHg5Nb8Mv3Lk6Jh1Gf4@mail.example.com",
    verpMessageId: "Ex2cHg5Nb8Mv3Lk6Jh1Gf4",
  },
  {
    file: "exchange-plain-text.eml",
    heuristic: true,
    recipients: [{ finalRecipient: "lost@old.example", action: "failed", status: "5.1.1", diagnosticType: "text", diagnosticIncludes: "does not exist at the organization" }],
    verpMessageId: "Pf5hRd0aQk2Lm7Nz3Xc9Vb",
  },
];

interface ExpectedComplaint {
  file: string;
  feedbackType: string;
  userAgent: string;
  originalRcptTo: string[];
  messageId: string;
  verpMessageId: string;
  arrivalDate: string;
  sourceIp?: string;
  reportedDomains: string[];
  posternCampaign?: string;
}

const COMPLAINTS: ExpectedComplaint[] = [
  {
    file: "arf-yahoo.eml",
    feedbackType: "abuse",
    userAgent: "Yahoo!-Mail-Feedback/2.0",
    originalRcptTo: ["reader.one@yahoo.com"],
    messageId: "Yh6oOb9Nm2Lk5Ji8Hu1Gy4@mail.example.com",
    verpMessageId: "Yh6oOb9Nm2Lk5Ji8Hu1Gy4",
    arrivalDate: "Tue, 10 Nov 2026 15:02:11 +0000",
    reportedDomains: ["example.com"],
  },
  {
    file: "arf-microsoft-jmrp.eml",
    feedbackType: "abuse",
    userAgent: "Hotmail FBL",
    // JMRP sends no Original-Rcpt-To; the recipient comes from X-HmXmrOriginalRecipient.
    originalRcptTo: ["complainer@outlook.com"],
    messageId: "Jm5rPh8Gf1Ds4Aq7Zw0Xe3@mail.example.com",
    verpMessageId: "Jm5rPh8Gf1Ds4Aq7Zw0Xe3",
    arrivalDate: "Tue, 10 Nov 2026 16:11:09 -0800",
    sourceIp: "198.51.100.7",
    reportedDomains: [],
    posternCampaign: "flash-sale-11",
  },
  {
    file: "arf-rfc5965.eml",
    feedbackType: "abuse",
    userAgent: "ExampleNet-FBL/1.0",
    originalRcptTo: ["subscriber@mailbox.example.net"],
    messageId: "Ar4fSt7Dd0Qw3Er6Ty9Ui2@mail.example.com",
    verpMessageId: "Ar4fSt7Dd0Qw3Er6Ty9Ui2",
    arrivalDate: "Wed, 11 Nov 2026 07:58:02 +0000",
    sourceIp: "198.51.100.7",
    reportedDomains: ["example.com"],
  },
];

function expectRecipients(report: BounceReport, expected: ExpectedRecipient[]): void {
  expect(report.recipients.map((r) => r.finalRecipient)).toEqual(expected.map((r) => r.finalRecipient));
  expected.forEach((want, i) => {
    const got = report.recipients[i];
    expect(got?.action).toBe(want.action as never);
    expect(got?.status).toBe(want.status);
    if (want.diagnosticType) expect(got?.diagnostic?.type).toBe(want.diagnosticType);
    if (want.diagnosticCode) expect(got?.diagnostic?.code).toBe(want.diagnosticCode);
    if (want.diagnosticEnhanced) expect(got?.diagnostic?.enhancedCode).toBe(want.diagnosticEnhanced);
    if (want.diagnosticIncludes) expect(got?.diagnostic?.text).toContain(want.diagnosticIncludes);
    if (want.remoteMta) expect(got?.remoteMta).toBe(want.remoteMta);
  });
}

describe("parseReport: DSN and plain-text bounces", () => {
  for (const want of BOUNCES) {
    test(`reads ${want.file}`, async () => {
      const report = (await parseReport(load(want.file))) as BounceReport;
      expect(report?.kind).toBe("bounce");
      expect(report.heuristic).toBe(want.heuristic);
      expectRecipients(report, want.recipients);
      if (want.reportingMta) expect(report.reportingMta).toBe(want.reportingMta);
      if (want.messageId) {
        expect(report.original?.messageId).toBe(want.messageId);
        expect(report.original?.headers["x-postern-message-id"]).toBe(want.verpMessageId);
      }
      expect(decodeReturnPath(report.returnPath ?? "", FIXTURE_VERP_SECRET)?.messageId).toBe(want.verpMessageId);
    });
  }
});

describe("parseReport: ARF complaints", () => {
  for (const want of COMPLAINTS) {
    test(`reads ${want.file}`, async () => {
      const report = (await parseReport(load(want.file))) as ComplaintReport;
      expect(report?.kind).toBe("complaint");
      expect(report.feedbackType).toBe(want.feedbackType);
      expect(report.userAgent).toBe(want.userAgent);
      expect(report.originalRcptTo).toEqual(want.originalRcptTo);
      expect(report.arrivalDate).toBe(want.arrivalDate);
      expect(report.sourceIp).toBe(want.sourceIp);
      expect(report.reportedDomains).toEqual(want.reportedDomains);
      expect(report.original?.messageId).toBe(want.messageId);
      expect(report.original?.headers["x-postern-message-id"]).toBe(want.verpMessageId);
      if (want.posternCampaign) expect(report.original?.headers["x-postern-campaign"]).toBe(want.posternCampaign);
      expect(decodeReturnPath(report.returnPath ?? "", FIXTURE_VERP_SECRET)?.messageId).toBe(want.verpMessageId);
    });
  }

  test("keeps every RFC 5965 field of a Version 1 report", async () => {
    const report = (await parseReport(load("arf-rfc5965.eml"))) as ComplaintReport;
    expect(report.version).toBe("1");
    expect(report.reportingMta).toBe("mx3.mailbox.example.net");
    expect(report.incidents).toBe(1);
    expect(report.reportedUris).toEqual(["https://t.example.com/c/Ar4fSt7Dd0Qw3Er6Ty9Ui2"]);
    expect(report.authenticationResults[0]).toContain("dkim=pass header.d=example.com");
    expect(report.originalMailFrom).toBe("b+wfniss43rzwoanoqm5vdhpqs6wargviba643az47f4bppx@bounces.example.com");
  });
});

describe("parseReport: inputs that are not reports", () => {
  for (const file of ["not-report-reply.eml", "not-report-autoreply.eml"]) {
    test(`returns null for ${file}`, async () => {
      expect(await parseReport(load(file))).toBeNull();
    });
  }

  const garbage: [string, string | Uint8Array][] = [
    ["an empty string", ""],
    ["plain words", "hello there"],
    ["random bytes", Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)],
    ["a report part without recipients", "From: a@example.com\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; x.example\n\n--b--\n"],
    ["an unterminated multipart", "Content-Type: multipart/report; boundary=b\n\n--b\nContent-Type: message/delivery-status\n\nFinal-Rec"],
  ];
  for (const [name, raw] of garbage) {
    test(`returns null for ${name}`, async () => {
      expect(await parseReport(raw)).toBeNull();
    });
  }
});

describe("parseReport: every ARF report is a complaint", () => {
  test("a feedback report without Feedback-Type counts as abuse", async () => {
    const raw = "From: a@example.com\nContent-Type: multipart/report; report-type=feedback-report; boundary=b\n\n--b\nContent-Type: message/feedback-report\n\nUser-Agent: x/1\nVersion: 1\n\n--b--\n";
    expect(await parseReport(raw)).toMatchObject({ kind: "complaint", feedbackType: "abuse" });
  });
  test("a feedback part mislabelled text/plain is still read", async () => {
    const raw = "From: fbl@isp.example\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nThis is an abuse report\n--b\nContent-Type: text/plain\n\nFeedback-Type: abuse\nUser-Agent: isp-fbl/1\nVersion: 1\nOriginal-Rcpt-To: reader@isp.example\n--b--\n";
    expect(await parseReport(raw)).toMatchObject({ kind: "complaint", feedbackType: "abuse", originalRcptTo: ["reader@isp.example"] });
  });
});

describe("parseReport: encodings and line endings", () => {
  test("gives the same result for CRLF, LF, string and bytes", async () => {
    for (const { file } of [...BOUNCES, ...COMPLAINTS]) {
      const bytes = load(file);
      const fromBytes = await parseReport(bytes);
      expect(await parseReport(toCrlf(bytes))).toEqual(fromBytes);
      expect(await parseReport(new TextDecoder().decode(bytes))).toEqual(fromBytes);
    }
  });
});
