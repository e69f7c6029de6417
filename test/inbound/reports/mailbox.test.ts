// Receivers' reports end to end: report mails in Gmail's, Microsoft's and Yahoo's packing and a
// TLS-RPT report are sent over SMTP to the addresses `domain dns` publishes, then read through
// the native API and the CLI. A duplicate is stored once; a malformed or oversized report is
// refused with nothing stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import nodemailer from "nodemailer";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";

const F = join(import.meta.dir, "../../fixtures/receiver-reports");
const MAIN = join(import.meta.dir, "../../../cli/main.ts");
const DOMAIN = "reports.test";
let t: TestApp;
let smtpPort = 0;
let base = "";

beforeAll(async () => {
  t = await makeTestApp({ domain: DOMAIN });
  const where = await t.app.start();
  smtpPort = Number(where.smtp!.split(":").pop());
  base = `http://${where.http}`;
});
afterAll(async () => { await t.close(); });

/** Sends a report mail with one attachment; resolves with the SMTP outcome. */
async function sendReport(to: string, file: { filename: string; contentType: string; content: Buffer }, from = "noreply-dmarc-support@google.com") {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true });
  try {
    const info = await transport.sendMail({ from, to, subject: `Report domain: ${DOMAIN} Submitter: test`, text: "This is an aggregate report.",
      attachments: [file] });
    return { ok: true, response: info.response };
  } catch (e) {
    return { ok: false, code: (e as { responseCode?: number }).responseCode, response: (e as { response?: string }).response };
  } finally {
    transport.close();
  }
}

const api = async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: { "ov-token": t.domainKey } });
  return { status: res.status, body: await res.json() as { items: Record<string, unknown>[] } & Record<string, unknown> };
};
const PERIOD = "from=2026-11-01&to=2026-12-01";

describe("DMARC aggregate and TLS reports over SMTP", () => {
  test("domain dns publishes the report addresses the bounce domain takes", async () => {
    const records = await t.app.domains.records(DOMAIN);
    expect(records.find((r) => r.purpose === "dmarc")?.value).toBe(`v=DMARC1; p=none; rua=mailto:dmarc@bounces.${DOMAIN}`);
    expect(records.find((r) => r.purpose === "tls-rpt")).toMatchObject({ name: `_smtp._tls.${DOMAIN}`, value: `v=TLSRPTv1; rua=mailto:tlsrpt@bounces.${DOMAIN}` });
  });

  test("Gmail (zip), Microsoft (gz) and Yahoo (gz) reports are stored and listed through the API, oldest first", async () => {
    const to = `dmarc@bounces.${DOMAIN}`;
    expect((await sendReport(to, { filename: "google.com!reports.test!1795824000!1795910399.zip", contentType: "application/zip", content: readFileSync(join(F, "google.zip")) })).ok).toBe(true);
    expect((await sendReport(to, { filename: "enterprise.protection.outlook.com!reports.test!1795809600!1795896000.xml.gz", contentType: "application/gzip",
      content: readFileSync(join(F, "microsoft.xml.gz")) }, "dmarcreport@microsoft.com")).ok).toBe(true);
    expect((await sendReport(to, { filename: "yahoo.com!reports.test!1795824000!1795910399.xml.gz", contentType: "application/gzip",
      content: readFileSync(join(F, "yahoo.xml.gz")) }, "dmarchelp@yahooinc.com")).ok).toBe(true);
    const { status, body } = await api(`/domains/${DOMAIN}/reports/dmarc?${PERIOD}`);
    expect(status).toBe(200);
    expect(body.items.map((i) => i.reporter)).toEqual(["Enterprise Outlook", "Yahoo", "google.com"]);
    const google = body.items[2] as { rows: Record<string, unknown>[] };
    expect(google.rows[0]).toMatchObject({ source_ip: "127.0.0.1", count: 41, dkim_aligned: "pass", spf_aligned: "pass" });
    expect(google.rows[0]!.dkim).toEqual([{ domain: DOMAIN, selector: "s1", result: "pass" }]);
  });

  test("the same report sent twice is stored once", async () => {
    const again = await sendReport(`dmarc@bounces.${DOMAIN}`, { filename: "g.zip", contentType: "application/zip", content: readFileSync(join(F, "google.zip")) });
    expect(again.ok).toBe(true);
    const { body } = await api(`/domains/${DOMAIN}/reports/dmarc?${PERIOD}`);
    expect(body.items.filter((i) => i.reporter === "google.com")).toHaveLength(1);
  });

  test("a TLS-RPT report (application/tlsrpt+gzip) is stored and listed", async () => {
    const sent = await sendReport(`tlsrpt@bounces.${DOMAIN}`, { filename: "google.com!reports.test!1795996800!1796083199!001.json.gz",
      contentType: "application/tlsrpt+gzip", content: readFileSync(join(F, "google-tlsrpt.json.gz")) }, "noreply-smtp-tls-reporting@google.com");
    expect(sent.ok).toBe(true);
    const { body } = await api(`/domains/${DOMAIN}/reports/tls?${PERIOD}`);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ reporter: "Google Inc.", kind: "tls" });
    expect((body.items[0]!.policies as Record<string, unknown>[])[0]).toMatchObject({ policy_type: "sts", successful_sessions: 120, failed_sessions: 4 });
  });

  test("a malformed report and one that inflates past 10 MB are refused (5xx) and nothing is stored", async () => {
    const before = (await api(`/domains/${DOMAIN}/reports/dmarc?${PERIOD}`)).body.items.length;
    const bad = await sendReport(`dmarc@bounces.${DOMAIN}`, { filename: "r.xml", contentType: "text/xml",
      content: Buffer.from(readFileSync(join(F, "google.xml"), "utf8").replace("<source_ip>127.0.0.1</source_ip>", "").replace("5717107811868587391", "999")) });
    expect(bad.ok).toBe(false);
    expect(bad.code).toBeGreaterThanOrEqual(500);
    const bomb = await sendReport(`dmarc@bounces.${DOMAIN}`, { filename: "r.xml.gz", contentType: "application/gzip", content: gzipSync(Buffer.alloc(11 * 1024 * 1024, 32)) });
    expect(bomb.ok).toBe(false);
    expect(bomb.code).toBeGreaterThanOrEqual(500);
    expect((await api(`/domains/${DOMAIN}/reports/dmarc?${PERIOD}`)).body.items).toHaveLength(before);
  });

  test("an unreadable period is the native API's 400; a domain out of scope is a 404", async () => {
    expect((await api(`/domains/${DOMAIN}/reports/dmarc?from=yesterday`)).status).toBe(400);
    expect((await api(`/domains/other.test/reports/dmarc`)).status).toBe(404);
    expect((await api(`/domains/${DOMAIN}/reports/dmarc?from=1700000000&to=1700000001`)).body.items).toHaveLength(0);
    // Default period: the last 30 days, of the reports' periods or of their arrival.
    expect((await api(`/domains/${DOMAIN}/reports/dmarc`)).body.items).toHaveLength(3);
  });

  test("the CLI lists the reports and the sources sending as the domain, this machine's own marked", async () => {
    const run = (...args: string[]) => Bun.spawnSync(["bun", MAIN, "--config", join(t.dir, "postern.toml"), ...args]);
    const json = run("--json", "reports", "dmarc", "--domain", DOMAIN, "--from", "2026-11-01", "--to", "2026-12-01");
    expect(json.exitCode).toBe(0);
    const parsed = JSON.parse(json.stdout.toString()) as { items: { orgName: string }[] };
    expect(parsed.items.map((i) => i.orgName).sort()).toEqual(["Enterprise Outlook", "Yahoo", "google.com"]);
    const text = run("reports", "dmarc", "--domain", DOMAIN, "--from", "2026-11-01", "--to", "2026-12-01").stdout.toString();
    // Microsoft saw SPF fail but aligned DKIM pass: DMARC passes (RFC 7489 §6.6.2).
    expect(text).toMatch(/127\.0\.0\.1\s+yes\s+60\s+100%/);
    expect(text).toMatch(/198\.51\.100\.23\s+3\s+0%/);
    const tls = run("reports", "tls", "--domain", DOMAIN, "--from", "2026-11-01", "--to", "2026-12-01").stdout.toString();
    expect(tls).toContain("120 successful, 4 failed");
    expect(tls).toMatch(/mail\.reports\.test\s+certificate-expired\s+3/);
    expect(run("reports", "dmarc", "--domain", DOMAIN, "--from", "nope").exitCode).toBe(2);
    // Four CLI processes, each starting Bun: over 5 s on a loaded machine.
  }, 30_000);
});
