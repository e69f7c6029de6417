// ACME end to end against Pebble (real HTTP-01 validation on http_listen, names from a real DNS
// server): issuance served by the HTTP listener and STARTTLS, the redirect, stored files, a forced
// renewal swapped in without a restart, and a restart serving what is stored.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { startPebble, type PebbleServer } from "../helpers/pebble.ts";
import { freePort } from "../helpers/free-port.ts";
import { httpsPresents, starttlsPresents } from "../helpers/tls-probe.ts";

const NAME = "mail.example.test";
let dns: DnsmasqServer;
let pebble: PebbleServer;
let dir: string;
let ports: { http: number; smtp: number; redirect: number };
let app: App | null = null;

export function tlsConfig(d: string, p: typeof ports, pb: PebbleServer): string {
  const file = join(d, "postern.toml");
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:${p.http}"\npublic_url = "https://${NAME}:${p.http}"\n` +
    `[smtp]\nlisten = "127.0.0.1:${p.smtp}"\n[mta]\nhostname = "${NAME}"\n` +
    `[tls]\nacme = true\nacme_directory = "${pb.directory}"\nacme_ca_file = "${pb.caFile}"\nacme_email = "ops@example.test"\n` +
    `http_listen = "127.0.0.1:${p.redirect}"\n`);
  return file;
}

async function startApp(): Promise<App> {
  const a = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { log: createLogger({ level: process.env.POSTERN_LOG ? "debug" : "silent" }) });
  await a.start();
  return a;
}

/** Polls until `ok` holds (the provider works in the background); fails after `seconds`. */
export async function until<T>(what: string, get: () => Promise<T> | T, ok: (v: T) => boolean, seconds = 60): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < seconds * 5; i++) {
    last = await get();
    if (ok(last)) return last;
    await Bun.sleep(200);
  }
  throw new Error(`${what}: still ${JSON.stringify(last)}`);
}

const health = async () => (await (await fetch(`https://127.0.0.1:${ports.http}/healthz`, { tls: { rejectUnauthorized: false } })
  .catch(() => fetch(`http://127.0.0.1:${ports.http}/healthz`))).json()) as { tls: { state: string; not_after?: string } };

beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: NAME, value: "127.0.0.1" }]);
  ports = { http: await freePort(), smtp: await freePort(), redirect: await freePort() };
  pebble = await startPebble({ httpPort: ports.redirect, dnsServer: dns.server });
  dir = mkdtempSync(join(tmpdir(), "postern-acme-"));
  tlsConfig(dir, ports, pebble);
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
  expect((await health()).tls.state).toBe("ok");
}, 60_000);
