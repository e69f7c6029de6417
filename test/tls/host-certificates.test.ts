// Tracking hosts' certificates end to end: real dnsmasq (the host is a CNAME to this server's
// name, 127.0.0.1), real Pebble validating HTTP-01 on http_listen, the HTTPS listener serving the
// host's own certificate by SNI beside the main one, and new mail's links on https://<host>.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:https";
import PostalMime from "postal-mime";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { createSystemResolver } from "../../src/dns.ts";
import { certificateNames } from "../../src/tls/host-certificates.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { startPebble, type PebbleServer } from "../helpers/pebble.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { freePort } from "../helpers/free-port.ts";
import { httpsPresents } from "../helpers/tls-probe.ts";
import { NAME, until, type TlsPorts } from "../helpers/tls-setup.ts";

const HOST = "email.example.test";
let dns: DnsmasqServer;
let pebble: PebbleServer;
let sink: Sink;
let ports: TlsPorts;
let app: App;
let key = "";
let accountKey = "";

beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: NAME, value: "127.0.0.1" }, { type: "CNAME", name: HOST, value: NAME }]);
  ports = { http: await freePort(), smtp: await freePort(), redirect: await freePort() };
  pebble = await startPebble({ httpPort: ports.redirect, dnsServer: dns.server });
  sink = await startSink();
  const dir = mkdtempSync(join(tmpdir(), "postern-track-tls-"));
  writeFileSync(join(dir, "postern.toml"), `[server]\nlisten = "127.0.0.1:${ports.http}"\npublic_url = "https://${NAME}:${ports.http}"\n` +
    `[smtp]\nlisten = "127.0.0.1:${ports.smtp}"\n[storage]\ndata_dir = "${join(dir, "data")}"\n[mta]\nhostname = "${NAME}"\nretry = ["1s"]\n` +
    `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[tls]\nacme = true\nacme_directory = "${pebble.directory}"\nacme_ca_file = "${pebble.caFile}"\n` +
    `http_listen = "127.0.0.1:${ports.redirect}"\n`);
  app = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { resolver: createSystemResolver([dns.server]),
    log: createLogger({ level: process.env.POSTERN_LOG ? "debug" : "silent" }) });
  await app.domains.add("example.test");
  await app.domains.verify("example.test", true);
  key = (await app.access.createKey({ kind: "domain", domain: "example.test" })).key;
  accountKey = (await app.access.createKey({ kind: "account" })).key;
  await app.start();
  await until("main certificate", () => app.tls!.provider.health(), (h) => h.state === "ok", 90);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await sink?.close();
  await pebble?.stop();
  await dns?.stop();
});

test("a resolving tracking host gets its own certificate, served by SNI; the main name keeps the main certificate", async () => {
  await app.trackingHosts.checkAll();
  const done = await until("tracking host https", () => app.trackingHosts.get("example.test"), (v) => v.state === "https", 90);
  expect(done).toMatchObject({ host: HOST, linkBase: `https://${HOST}:${ports.http}`, note: "resolves to this server; certificate valid" });
  expect(done.certificate.state).toBe("active");
  const root = await pebble.root();
  const own = await httpsPresents(ports.http, HOST, root);
  expect(own.authorized).toBe(true);
  expect(own.cert.subjectaltname).toBe(`DNS:${HOST}`);
  const main = await httpsPresents(ports.http, NAME, root);
  expect(main.cert.subjectaltname).toContain(`DNS:${NAME}`);
  expect(main.cert.subjectaltname).not.toContain(HOST);
}, 120_000);

test("new mail's links are https on the domain's host, and the link answers there with that certificate", async () => {
  const res = await app.http(new Request("http://127.0.0.1/v3/mail/send", { method: "POST", headers: { authorization: `Bearer ${key}`,
    "content-type": "application/json" }, body: JSON.stringify({ personalizations: [{ to: [{ email: "r@dest.test" }] }], from: { email: "a@example.test" },
    subject: "s", content: [{ type: "text/html", value: '<html><body><a href="https://shop.example.org/x">x</a></body></html>' }],
    tracking_settings: { click_tracking: { enable: true } } }) }));
  expect(res.status).toBe(202);
  const [msg] = await sink.waitFor(1, 20_000);
  const html = (await PostalMime.parse(msg!.raw)).html ?? "";
  const link = /href="(https:\/\/[^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1] ?? "";
  expect(link).toStartWith(`https://${HOST}:${ports.http}/t/c/`);
  const u = new URL(link);
  const root = await pebble.root();
  const answer = await new Promise<{ status: number; location: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: ports.http, path: u.pathname, servername: HOST, ca: root, headers: { host: u.host } }, (r) => {
      r.resume();
      resolve({ status: r.statusCode ?? 0, location: String(r.headers.location) });
    });
    req.on("error", reject);
    req.end();
  });
  expect(answer).toEqual({ status: 302, location: "https://shop.example.org/x" });
}, 60_000);

test("Mailgun's /v2/x509 shows the certificate served, and refuses to order another while it is valid", async () => {
  const call = (method: string, path: string) => app.http(new Request(`http://127.0.0.1${path}`, { method, headers: { authorization: `Basic ${btoa(`api:${accountKey}`)}` } }));
  const status = await call("GET", `/v2/x509/${HOST}/status`);
  expect(status.status).toBe(200);
  const body = await status.json() as { status: string; error: string; certificate: string };
  expect(body.status).toBe("active");
  expect(body.error).toBe("");
  expect(body.certificate).toContain("BEGIN CERTIFICATE");
  expect((await httpsPresents(ports.http, HOST)).serial).toBe(new (await import("node:crypto")).X509Certificate(body.certificate).serialNumber.toUpperCase());
  const again = await call("POST", `/v2/x509/${HOST}`);
  expect(await again.json()).toEqual({ message: `x509 key pair generation has already been initiated for ${HOST}` });
  expect(again.status).toBe(409);
  expect((await call("PUT", `/v2/x509/${HOST}`)).status).toBe(409);
});

test("plain http on a tracking host (before its certificate) reaches http_listen, which sends it on to public_url over https", async () => {
  const res = await fetch(`http://127.0.0.1:${ports.redirect}/t/c/abc?x=1`, { headers: { host: HOST }, redirect: "manual" });
  expect(res.status).toBe(308);
  expect(res.headers.get("location")).toBe(`https://${NAME}:${ports.http}/t/c/abc?x=1`);
});

test("a wildcard certificate covers one label only", () => {
  const info = { names: ["*.example.test"], issuer: "", serial: "", notBefore: 0, notAfter: 1 };
  expect(certificateNames(info, "email.example.test")).toBe(true);
  expect(certificateNames(info, "a.email.example.test")).toBe(false);
  expect(certificateNames({ ...info, names: ["email.example.test"] }, "EMAIL.example.test")).toBe(true);
});
