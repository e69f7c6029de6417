// TLS-RPT by HTTPS POST (RFC 8460 §5.2), through the real CLI: a receiver's `_smtp._tls` record
// (dnsmasq) names an HTTPS address on loopback, served with a certificate of the test's own CA
// (given to the CLI process as NODE_EXTRA_CA_CERTS); `postern tls-rpt send` POSTs the day's report.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { loadConfig } from "../../../src/config/load.ts";
import { createApp } from "../../../src/app.ts";
import { createLogger } from "../../../src/log.ts";
import { dayOf } from "../../../src/mta/tls-report/report.ts";
import { startDnsmasq } from "../../helpers/dnsmasq.ts";
import { issued, testCa } from "../../helpers/dane-certs.ts";

const MAIN = join(import.meta.dir, "../../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-tlsrpt-https-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the day's report is POSTed gzip'd as application/tlsrpt+gzip to the https: address", async () => {
  testCa(dir, "ca");
  const leaf = issued(dir, "rpt", "ca", "localhost");
  const got: { type: string | null; body: Buffer }[] = [];
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { key: leaf.key, cert: leaf.cert },
    async fetch(req) { got.push({ type: req.headers.get("content-type"), body: Buffer.from(await req.arrayBuffer()) }); return new Response("", { status: 201 }); } });
  const dns = await startDnsmasq([{ type: "TXT", name: "_smtp._tls.https.test", strings: [`v=TLSRPTv1; rua=https://localhost:${server.port}/rpt`] }]);
  try {
    const file = join(dir, "postern.toml");
    writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = "${join(dir, "data")}"\n`
      + `[mta]\nhostname = "mta.test"\ndane = "off"\ntls_reports = true\ndns_servers = ["${dns.server}"]\n`);
    const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
    await app.store.control.addTlsSessions(dayOf(Date.now()), [
      { policyDomain: "https.test", policyType: "sts", mxHost: "mx.https.test", result: "success", count: 3 },
      { policyDomain: "https.test", policyType: "sts", mxHost: "mx.https.test", result: "sts-webpki-invalid", count: 1 },
      { policyDomain: "silent.test", policyType: "no-policy-found", mxHost: "mx.silent.test", result: "success", count: 5 }]); // no _smtp._tls: no report
    await app.stop();
    // Async: the HTTPS receiver runs in this process and must answer while the CLI waits.
    const proc = Bun.spawn(["bun", MAIN, "--config", file, "tls-rpt", "send", "--json"], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "ca.crt") },
      stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(err).toBe("");
    expect(JSON.parse(out)).toEqual({ reports: [{ domain: "https.test", to: `https://localhost:${server.port}/rpt`, ok: true }] });
    expect(got).toHaveLength(1);
    expect(got[0]!.type).toBe("application/tlsrpt+gzip");
    const report = JSON.parse(gunzipSync(got[0]!.body).toString());
    expect(report.policies).toEqual([{ policy: { "policy-type": "sts", "policy-string": [], "policy-domain": "https.test", "mx-host": ["mx.https.test"] },
      summary: { "total-successful-session-count": 3, "total-failure-session-count": 1 },
      "failure-details": [{ "result-type": "sts-webpki-invalid", "receiving-mx-hostname": "mx.https.test", "failed-session-count": 1 }] }]);
  } finally {
    server.stop(true);
    await dns.stop();
  }
}, 60_000);
