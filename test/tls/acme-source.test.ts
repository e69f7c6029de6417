// ACME end to end against Pebble (real HTTP-01 validation on http_listen, names from a real DNS
// server): issuance served by the HTTP listener and STARTTLS, the redirect, stored files, a forced
// renewal swapped in without a restart, and a restart serving what is stored.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { startPebble, type PebbleServer } from "../helpers/pebble.ts";
import { freePort } from "../helpers/free-port.ts";
import { httpsPresents, starttlsPresents } from "../helpers/tls-probe.ts";
import { NAME, healthOn, until, writeAcmeConfig, type TlsPorts } from "../helpers/tls-setup.ts";

let dns: DnsmasqServer;
let pebble: PebbleServer;
let dir: string;
let ports: TlsPorts;
let app: App | null = null;

async function startApp(d = dir): Promise<App> {
  const a = await createApp(loadConfig({ file: join(d, "postern.toml"), env: {} }), { log: createLogger({ level: process.env.POSTERN_LOG ? "debug" : "silent" }) });
  await a.start();
  return a;
}

const health = () => healthOn(ports.http);

beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: NAME, value: "127.0.0.1" }]);
  ports = { http: await freePort(), smtp: await freePort(), redirect: await freePort() };
  pebble = await startPebble({ httpPort: ports.redirect, dnsServer: dns.server });
  dir = mkdtempSync(join(tmpdir(), "postern-acme-"));
  writeAcmeConfig(dir, ports, pebble);
  app = await startApp();
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await pebble?.stop();
  await dns?.stop();
});

test("the HTTP listener serves a certificate for the name whose chain verifies against Pebble's root", async () => {
  await until("tls state", health, (h) => h.tls?.state === "ok");
  const root = await pebble.root();
  const https = await httpsPresents(ports.http, NAME, root);
  expect(https.authorizationError).toBeNull();
  expect(https.authorized).toBe(true);
  expect(https.cert.subjectaltname).toContain(`DNS:${NAME}`);
  // A root it does not chain to fails: the check above is not vacuous.
  expect((await httpsPresents(ports.http, NAME, await Bun.file(pebble.caFile).text())).authorized).toBe(false);
}, 90_000);

test("STARTTLS on the inbound listener presents the same certificate", async () => {
  const https = await httpsPresents(ports.http, NAME);
  const smtp = await starttlsPresents(ports.smtp, NAME, await pebble.root());
  expect(smtp.serial).toBe(https.serial);
  expect(smtp.authorized).toBe(true);
});

test("http_listen redirects with a 308 to public_url's origin, same path and query", async () => {
  const res = await fetch(`http://127.0.0.1:${ports.redirect}/v3/mail/send?a=1&b=two`, { redirect: "manual" });
  expect(res.status).toBe(308);
  expect(res.headers.get("location")).toBe(`https://${NAME}:${ports.http}/v3/mail/send?a=1&b=two`);
  expect((await fetch(`http://127.0.0.1:${ports.redirect}/.well-known/acme-challenge/unknown`)).status).toBe(404);
});

test("the account key, certificate and key are stored under data_dir/tls with mode 0600", () => {
  const tlsDir = join(dir, "postern-data", "tls");
  expect(readdirSync(tlsDir).filter((f) => !f.startsWith(".")).sort()).toEqual(["account.key", "cert.pem", "key.pem"]);
  for (const f of ["account.key", "cert.pem", "key.pem"]) expect(statSync(join(tlsDir, f)).mode & 0o777).toBe(0o600);
  expect(statSync(tlsDir).mode & 0o777).toBe(0o700);
});

test("a forced renewal swaps a new serial in without a restart; STARTTLS follows", async () => {
  const before = (await httpsPresents(ports.http, NAME)).serial;
  const result = await app!.tls!.provider.renew(true);
  expect(result.ok).toBe(true);
  expect(result.serial).not.toBe(before);
  const after = await until("served serial", async () => (await httpsPresents(ports.http, NAME)).serial, (s) => s !== before);
  expect(after).toBe(result.serial!);
  expect((await starttlsPresents(ports.smtp, NAME)).serial).toBe(after);
}, 60_000);

test("a restart serves the stored certificate (same serial, no new order)", async () => {
  const before = (await httpsPresents(ports.http, NAME)).serial;
  await app!.stop();
  app = null;
  app = await startApp();
  expect((await httpsPresents(ports.http, NAME)).serial).toBe(before);
  expect((await health()).tls?.state).toBe("ok");
}, 60_000);

test("with the CA unreachable the server starts, /healthz says why, and the certificate comes once the CA is back", async () => {
  await app!.stop();
  app = null;
  await pebble.stop();
  const fresh = mkdtempSync(join(tmpdir(), "postern-acme-down-"));
  writeAcmeConfig(fresh, ports, pebble);
  app = await startApp(fresh);
  const down = await until("tls state", health, (h) => h.tls?.state === "error", 30);
  expect(down.tls?.error).toMatch(/unreachable/);
  expect((await fetch(`http://127.0.0.1:${ports.http}/healthz`)).status).toBe(200); // plain HTTP until then
  await pebble.restart();
  await until("tls state", health, (h) => h.tls?.state === "ok", 90);
  expect((await httpsPresents(ports.http, NAME, await pebble.root())).authorized).toBe(true);
}, 150_000);
