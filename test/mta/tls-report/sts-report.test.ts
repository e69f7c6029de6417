// TLS-RPT for an MTA-STS domain, end to end with real parts only: dnsmasq publishes sts.test's MX
// hosts, its `_mta-sts` and `_smtp._tls` records; its policy is served over HTTPS on
// 127.43.x.3:443 (what mailauth fetches) with a certificate of the test's own CA; two SMTP sinks on
// 127.43.x.y:25 are its MX hosts: mx1 presents a self-signed certificate (every session to it
// fails), mx2 one the CA issued. The real app delivers, then its daily report job (catchUp, run by
// the app at start and hourly) is driven with the injected clock across midnight: the report for
// the day goes by mail through postern to the rua address, whose MX is the same sink.
// The test CA is trusted by this process while the test runs (helpers/mta-sts.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { issued, selfSigned, testCa } from "../../helpers/dane-certs.ts";
import { until } from "../../helpers/tls-setup.ts";
import { servePolicy, trustCa, type PolicyHost } from "../../helpers/mta-sts.ts";
import { createSystemResolver } from "../../../src/dns.ts";
import type { MessageEvent, Principal } from "../../../src/core/model.ts";
import { dayOf } from "../../../src/mta/tls-report/report.ts";
import type { TlsReport } from "../../../src/mta/tls-report/report.ts";

const DAY_MS = 86_400_000;
const NET = `127.43.${1 + Math.floor(Math.random() * 250)}`;
const MX1 = `${NET}.1`;
const MX2 = `${NET}.2`;
const POLICY_HOST = `${NET}.3`;
/**
 * The policy as sts.test serves it (RFC 8461 §3.2: CRLF line ends, fields in any order); the
 * report's policy-string is its lines as they are (RFC 8460 §4.4), not a re-assembly of its fields.
 */
const POLICY = "version: STSv1\r\nmode: enforce\r\nmax_age: 86400\r\nmx: mx1.sts.test\r\nmx: mx2.sts.test\r\n";
const LINES = ["version: STSv1", "mode: enforce", "max_age: 86400", "mx: mx1.sts.test", "mx: mx2.sts.test"];
const MESSAGES = 3;

const dir = mkdtempSync(join(tmpdir(), "postern-sts-rpt-"));
let untrust = () => {};
let dns: DnsmasqServer;
let policyHost: PolicyHost;
let mx1: Sink;
let mx2: Sink;
let t: TestApp;
/** The app's clock: the real one moved to noon of day D, then a day on (the report job's midnight). */
const D = dayOf(Date.now());
let offset = D * DAY_MS + 12 * 3_600_000 - Date.now();

beforeAll(async () => {
  const ca = testCa(dir, "ca");
  untrust = trustCa(ca.cert);
  const policyCert = issued(dir, "policy", "ca", "mta-sts.sts.test");
  const good = issued(dir, "mx2", "ca", "mx2.sts.test");
  const stranger = selfSigned(dir, "mx1", "mx1.sts.test");
  policyHost = servePolicy(POLICY_HOST, policyCert, POLICY);
  mx1 = await startSink({ host: MX1, port: 25, tls: { key: stranger.key, cert: stranger.cert } });
  mx2 = await startSink({ host: MX2, port: 25, tls: { key: good.key, cert: good.cert } });
  dns = await startDnsmasq([
    { type: "MX", name: "sts.test", value: "mx1.sts.test", priority: 10 },
    { type: "MX", name: "sts.test", value: "mx2.sts.test", priority: 20 },
    { type: "A", name: "mx1.sts.test", value: MX1 },
    { type: "A", name: "mx2.sts.test", value: MX2 },
    { type: "A", name: "mta-sts.sts.test", value: POLICY_HOST },
    { type: "TXT", name: "_mta-sts.sts.test", strings: ["v=STSv1; id=20261128T1200"] },
    { type: "TXT", name: "_smtp._tls.sts.test", strings: ["v=TLSRPTv1; rua=mailto:tls-reports@sts.test"] },
  ]);
  t = await makeTestApp({ toml: `dns_servers = ["${dns.server}"]\ndane = "off"\ntls_reports = true\n`,
    resolver: createSystemResolver([dns.server]), now: () => Date.now() + offset });
  await t.app.mta.scheduler.start();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([mx1?.close(), mx2?.close(), dns?.stop()]);
  policyHost?.stop();
  untrust();
  rmSync(dir, { recursive: true, force: true });
});

const eventsOf = async (email: string): Promise<MessageEvent[]> => t.app.store.zone("us").searchEvents({ recipient: email, limit: 50, ascending: true });

/** The gzip'd JSON attached to a report mail (mailparser does not run under Bun). */
function reportOf(raw: string): TlsReport {
  const boundary = /boundary="([^"]+)"/.exec(raw)![1]!;
  const part = raw.split(`--${boundary}`).find((p) => p.includes("Content-Type: application/tlsrpt+gzip"))!;
  const body = part.split(/\r?\n\r?\n/).slice(1).join("").replace(/\s+/g, "");
  return JSON.parse(gunzipSync(Buffer.from(body, "base64")).toString()) as TlsReport;
}

test("the day's report for an MTA-STS domain: policy-type sts, the served policy's lines, its domain, sessions that succeeded and failed", async () => {
  const reporter = t.app.tlsReporter!;
  await reporter.catchUp(); // the job's first run (at start): only notes that days before it are not reported
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  const rcpts = Array.from({ length: MESSAGES }, (_, i) => `rcpt${i}@sts.test`);
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: rcpts.map((email) => ({ to: [{ email }], subject: "sts", text: "t" })) });
  for (const r of rcpts) await until(`delivered to ${r}`, async () => (await eventsOf(r)).find((e) => e.type === "delivered"), (e) => e !== undefined, 30);
  // Only over verified TLS, only through mx2: mx1's certificate is nobody's, so enforce never sends it mail.
  expect(mx2.messages.filter((m) => rcpts.includes(m.to[0]!)).map((m) => m.session.secure)).toEqual(rcpts.map(() => true));
  expect(mx1.messages).toEqual([]);
  expect(mx1.connections).toBeGreaterThan(0);
  expect(policyHost.requests[0]).toBe("mta-sts.sts.test/.well-known/mta-sts.txt");
  // A session is a connection (RFC 8460 §4.3): as many as each sink accepted on day D.
  const [ok, failed] = [mx2.connections, mx1.connections];
  expect(ok).toBeGreaterThan(0);

  // Past midnight on the app's clock: the hourly job reports day D, by mail through postern to the rua.
  offset += DAY_MS;
  const before = mx2.messages.length;
  await reporter.catchUp();
  const [mail] = await mx2.waitFor(before + 1, 30_000).then((m) => m.slice(before));
  expect(mail!.to).toEqual(["tls-reports@sts.test"]);
  const raw = mail!.raw.toString();
  expect(raw).toMatch(/^TLS-Report-Domain: sts\.test\r?$/m);
  const report = reportOf(raw);
  expect(report["date-range"]["start-datetime"]).toBe(new Date(D * DAY_MS).toISOString().replace(".000Z", "Z"));
  const byMx = Object.fromEntries(report.policies.map((p) => [p.policy["mx-host"][0], p]));
  expect(Object.keys(byMx).sort()).toEqual(["mx1.sts.test", "mx2.sts.test"]);
  expect(byMx["mx2.sts.test"]).toEqual({
    policy: { "policy-type": "sts", "policy-string": LINES, "policy-domain": "sts.test", "mx-host": ["mx2.sts.test"] },
    summary: { "total-successful-session-count": ok, "total-failure-session-count": 0 },
    "failure-details": [],
  });
  expect(byMx["mx1.sts.test"]).toEqual({
    policy: { "policy-type": "sts", "policy-string": LINES, "policy-domain": "sts.test", "mx-host": ["mx1.sts.test"] },
    summary: { "total-successful-session-count": 0, "total-failure-session-count": failed },
    "failure-details": [{ "result-type": "sts-webpki-invalid", "sending-mta-ip": expect.stringMatching(/^127\./), "receiving-ip": MX1,
      "receiving-mx-hostname": "mx1.sts.test", "failed-session-count": failed }],
  });
}, 90_000);
