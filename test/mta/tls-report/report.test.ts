import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { buildReport, dayOf, gzipReport, mailtoAddress, parseTlsRpt, reportFileName, reportMail } from "../../../src/mta/tls-report/report.ts";
import { resultTypeOf } from "../../../src/mta/tls-report/sessions.ts";

const DAY = dayOf(Date.UTC(2026, 10, 27, 13));
const who = { organization: "mta.example", contact: "tls-reports@example.com", reportId: "r1" };
const rows = [
  { policyDomain: "a.test", policyType: "tlsa" as const, mxHost: "mx1.a.test", result: "success", count: 7 },
  { policyDomain: "a.test", policyType: "tlsa" as const, mxHost: "mx1.a.test", result: "validation-failure", count: 2 },
  { policyDomain: "a.test", policyType: "no-policy-found" as const, mxHost: "mx2.a.test", result: "success", count: 1 },
  { policyDomain: "b.test", policyType: "sts" as const, mxHost: "mx.b.test", result: "success", count: 4 },
];

describe("the RFC 8460 §4 report", () => {
  test("one policy per type and MX host, with its summary and failures by result-type, for one domain and one UTC day", () => {
    expect(buildReport("a.test", DAY, rows, who)).toEqual({
      "organization-name": "mta.example",
      "date-range": { "start-datetime": "2026-11-27T00:00:00Z", "end-datetime": "2026-11-27T23:59:59Z" },
      "contact-info": "tls-reports@example.com", "report-id": "r1",
      policies: [
        { policy: { "policy-type": "tlsa", "policy-string": [], "policy-domain": "a.test", "mx-host": ["mx1.a.test"] },
          summary: { "total-successful-session-count": 7, "total-failure-session-count": 2 },
          "failure-details": [{ "result-type": "validation-failure", "receiving-mx-hostname": "mx1.a.test", "failed-session-count": 2 }] },
        { policy: { "policy-type": "no-policy-found", "policy-string": [], "policy-domain": "a.test", "mx-host": ["mx2.a.test"] },
          summary: { "total-successful-session-count": 1, "total-failure-session-count": 0 }, "failure-details": [] },
      ],
    });
  });
  test("failure details name the sending and receiving IP when they are known (§4.3)", () => {
    const failed = { policyDomain: "c.test", policyType: "sts" as const, mxHost: "mx.c.test", result: "certificate-expired" };
    const report = buildReport("c.test", DAY, [{ ...failed, sendingIp: "192.0.2.1", receivingIp: "198.51.100.7", count: 3 }, { ...failed, count: 1 }], who);
    expect(report.policies[0]!["failure-details"]).toEqual([
      { "result-type": "certificate-expired", "sending-mta-ip": "192.0.2.1", "receiving-ip": "198.51.100.7", "receiving-mx-hostname": "mx.c.test", "failed-session-count": 3 },
      { "result-type": "certificate-expired", "receiving-mx-hostname": "mx.c.test", "failed-session-count": 1 }]);
    expect(report.policies[0]!.summary["total-failure-session-count"]).toBe(4);
  });
  test("an MTA-STS policy's lines are its policy-string; sessions under another version of the policy are another policy object (§4.3)", () => {
    const sts = { policyDomain: "d.test", policyType: "sts" as const, mxHost: "mx.d.test", result: "success" };
    const v1 = ["version: STSv1", "mode: enforce", "mx: mx.d.test", "max_age: 86400"];
    const v2 = ["version: STSv1", "mode: enforce", "mx: *.d.test", "max_age: 604800"];
    const report = buildReport("d.test", DAY, [{ ...sts, policyString: v1, count: 2 }, { ...sts, policyString: v2, count: 5 }], who);
    expect(report.policies.map((p) => [p.policy["policy-string"], p.summary["total-successful-session-count"]])).toEqual([[v1, 2], [v2, 5]]);
  });
  test("the file name of §5.3 and the gzip'd body", () => {
    expect(reportFileName("mta.example", "a.test", DAY, "u1")).toBe(`mta.example!a.test!${DAY * 86400}!${DAY * 86400 + 86399}!u1.json.gz`);
    // unique-id = 1*(ALPHA / DIGIT): the reporter's "<day>.<seconds>" must not put a second dot before the extension.
    expect(reportFileName("mta.example", "a.test", DAY, `${DAY}.1795000000`)).toBe(`mta.example!a.test!${DAY * 86400}!${DAY * 86400 + 86399}!${DAY}1795000000.json.gz`);
    expect(reportFileName("mta.example", "a.test", DAY, "")).toBe(`mta.example!a.test!${DAY * 86400}!${DAY * 86400 + 86399}.json.gz`);
    const report = buildReport("b.test", DAY, rows, who);
    expect(JSON.parse(gunzipSync(gzipReport(report)).toString())).toEqual(report);
  });
  test("the mail carries the §5.3 headers and subject", () => {
    const report = buildReport("b.test", DAY, rows, who);
    const raw = new TextDecoder().decode(reportMail({ from: "tls-reports@example.com", to: "rua@b.test", domain: "b.test", submitter: "mta.example",
      report, file: "f.json.gz", gz: gzipReport(report), date: new Date(0), messageId: "m1@mta.example" }));
    expect(raw).toContain("\r\nSubject: Report Domain: b.test Submitter: mta.example Report-ID: <r1>\r\n");
    expect(raw).toContain("\r\nTLS-Report-Domain: b.test\r\nTLS-Report-Submitter: mta.example\r\n");
    expect(raw).toContain('Content-Type: multipart/report; report-type="tlsrpt"');
    expect(raw).toContain('Content-Type: application/tlsrpt+gzip; name="f.json.gz"');
  });
});

test("the _smtp._tls record: mailto and https addresses; anything else is not TLS-RPT", () => {
  expect(parseTlsRpt("v=TLSRPTv1; rua=mailto:r@a.test,https://rpt.a.test/in")).toEqual(["mailto:r@a.test", "https://rpt.a.test/in"]);
  expect(parseTlsRpt("v=TLSRPTv1;rua=mailto:r@a.test")).toEqual(["mailto:r@a.test"]);
  expect(parseTlsRpt("v=spf1 -all")).toBeNull();
  expect(parseTlsRpt("v=TLSRPTv1; rua=ftp://x")).toEqual([]);
});

test("a mailto: rua's address: percent-decoded, without ?fields (the To header and the envelope both use it)", () => {
  expect(mailtoAddress("mailto:tls%2Breports@a.test?subject=report")).toBe("tls+reports@a.test");
  expect(mailtoAddress("MAILTO:r@a.test")).toBe("r@a.test");
  expect(mailtoAddress("https://rpt.a.test/in")).toBeNull();
  expect(mailtoAddress("mailto:%E0%A4%A@a.test")).toBeNull();
});

test("result-types from the client's errors (RFC 8460 §4.3)", () => {
  expect(resultTypeOf("dane", "DANE verification failed for mx: no TLSA record matches")).toBe("validation-failure");
  expect(resultTypeOf("dane", "STARTTLS is required (DANE) but not offered")).toBe("starttls-not-supported");
  expect(resultTypeOf("mta-sts", "TLS handshake failed: Hostname/IP does not match certificate's altnames")).toBe("certificate-host-mismatch");
  expect(resultTypeOf("mta-sts", "TLS handshake failed: self signed certificate")).toBe("sts-webpki-invalid");
  expect(resultTypeOf("mta-sts", "TLS handshake failed: certificate has expired")).toBe("certificate-expired");
});
