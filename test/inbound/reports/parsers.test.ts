// The DMARC aggregate and TLS-RPT readers on reports in the shapes Gmail, Microsoft and Yahoo send,
// and the unpacking of their zip/gzip files, bounded at 10 MB.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync, gzipSync } from "node:zlib";
import { parseDmarcXml } from "../../../src/inbound/reports/dmarc.ts";
import { parseTlsReportJson } from "../../../src/inbound/reports/tlsrpt.ts";
import { isReportFile, unpack } from "../../../src/inbound/reports/unpack.ts";

const F = join(import.meta.dir, "../../fixtures/receiver-reports");
const read = (name: string) => readFileSync(join(F, name));

describe("DMARC aggregate reports", () => {
  test("Gmail's: two sources, aligned results and raw results, period in ms", () => {
    const r = parseDmarcXml(read("google.xml").toString());
    expect(r).toMatchObject({ kind: "dmarc", domain: "reports.test", orgName: "google.com", reportId: "5717107811868587391",
      begin: 1795824000_000, end: 1795910399_000, policy: { p: "none", pct: 100, adkim: "r" } });
    expect(r.rows.map((x) => [x.sourceIp, x.count, x.dkimAligned, x.spfAligned])).toEqual([["127.0.0.1", 41, "pass", "pass"], ["198.51.100.23", 3, "fail", "fail"]]);
    expect(r.rows[0]!.dkim).toEqual([{ domain: "reports.test", selector: "s1", result: "pass" }]);
    expect(r.rows[1]!.spf).toEqual([{ domain: "spoofer.example", scope: "mfrom", result: "softfail" }]);
  });

  test("Microsoft's (namespaces, envelope identifiers) and Yahoo's", () => {
    const ms = parseDmarcXml(read("microsoft.xml").toString());
    expect(ms.orgName).toBe("Enterprise Outlook");
    expect(ms.rows[0]).toMatchObject({ sourceIp: "127.0.0.1", count: 12, dkimAligned: "pass", spfAligned: "fail", envelopeTo: "contoso.com" });
    const y = parseDmarcXml(read("yahoo.xml").toString());
    expect([y.orgName, y.reportId, y.rows.length]).toEqual(["Yahoo", "1795863712.720814", 1]);
  });

  test("not a report, a DOCTYPE (entity expansion) and a record without a source are refused", () => {
    expect(() => parseDmarcXml("<html><body>hello</body></html>")).toThrow();
    expect(() => parseDmarcXml("not xml at all")).toThrow();
    expect(() => parseDmarcXml(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><feedback/>`)).toThrow(/DOCTYPE/);
    const broken = read("google.xml").toString().replace("<source_ip>127.0.0.1</source_ip>", "");
    expect(() => parseDmarcXml(broken)).toThrow(/source_ip/);
  });
});

describe("TLS reports", () => {
  test("Google's RFC 8460 report: policy, session counts and failure details", () => {
    const r = parseTlsReportJson(read("google-tlsrpt.json").toString());
    expect(r).toMatchObject({ kind: "tls", domain: "reports.test", orgName: "Google Inc.", begin: Date.parse("2026-11-25T00:00:00Z") });
    expect(r.policies[0]).toMatchObject({ policyType: "sts", successful: 120, failed: 4, mxHosts: ["mail.reports.test"] });
    expect(r.policies[0]!.failures.map((f) => [f.resultType, f.count])).toEqual([["certificate-expired", 3], ["starttls-not-supported", 1]]);
  });

  test("JSON that is not a TLS report is refused", () => {
    expect(() => parseTlsReportJson("{}")).toThrow();
    expect(() => parseTlsReportJson("[1,2]")).toThrow();
    expect(() => parseTlsReportJson("{nope")).toThrow();
  });
});

describe("unpacking report files", () => {
  test("zip (Gmail), gzip (Microsoft, Yahoo, TLS-RPT) and plain files give the same text", () => {
    const file = (name: string, mimeType: string) => ({ name, mimeType, content: new Uint8Array(read(name)) });
    expect(unpack(file("google.zip", "application/zip"))).toBe(read("google.xml").toString());
    expect(unpack(file("microsoft.xml.gz", "application/gzip"))).toBe(read("microsoft.xml").toString());
    expect(unpack(file("google-tlsrpt.json.gz", "application/tlsrpt+gzip"))).toBe(read("google-tlsrpt.json").toString());
    expect(unpack(file("yahoo.xml", "text/xml"))).toBe(read("yahoo.xml").toString());
  });

  test("a file that inflates past 10 MB is refused, not inflated", () => {
    const bomb = gzipSync(Buffer.alloc(11 * 1024 * 1024, 32));
    expect(bomb.length).toBeLessThan(100_000);
    expect(() => unpack({ name: "x.xml.gz", mimeType: "application/gzip", content: bomb })).toThrow();
    expect(() => unpack({ name: "x.zip", mimeType: "application/zip", content: zipOf("x.xml", Buffer.alloc(11 * 1024 * 1024, 32)) })).toThrow();
  });

  test("a truncated or garbled zip is refused", () => {
    const zip = read("google.zip");
    expect(() => unpack({ name: "g.zip", mimeType: "application/zip", content: zip.subarray(0, zip.length - 30) })).toThrow();
  });

  test("which parts are report files", () => {
    expect(isReportFile({ mimeType: "application/zip", filename: "google.com!a!1!2.zip" }, "dmarc")).toBe(true);
    expect(isReportFile({ mimeType: "application/tlsrpt+gzip", filename: "r.json.gz" }, "tls")).toBe(true);
    expect(isReportFile({ mimeType: "application/octet-stream", filename: "r.xml" }, "dmarc")).toBe(true);
    expect(isReportFile({ mimeType: "image/png", filename: "logo.png" }, "dmarc")).toBe(false);
  });
});

/** A one-entry deflated zip whose central directory declares `name` at its real size (a bomb, when large). */
function zipOf(name: string, data: Buffer): Buffer {
  const packed = deflateRawSync(data);
  const n = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(8, 8); local.writeUInt32LE(packed.length, 18); local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(8, 10); central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24); central.writeUInt16LE(n.length, 28); central.writeUInt32LE(0, 42);
  const dirAt = 30 + n.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10); end.writeUInt32LE(46 + n.length, 12); end.writeUInt32LE(dirAt, 16);
  return Buffer.concat([local, n, packed, central, n, end]);
}
