// `[tls] cert_file`/`key_file`: HTTPS and STARTTLS present the configured certificate, and a
// replaced pair is served without a restart (the files are read again every `reload_interval`:
// 10 s by default, 1 s here so that the two waits for a read take seconds, not tens of them).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { freePort } from "../helpers/free-port.ts";
import { httpsPresents, starttlsPresents } from "../helpers/tls-probe.ts";
import { NAME, healthOn, until } from "../helpers/tls-setup.ts";
import { certInfo } from "../../src/tls/cert-info.ts";

const dir = mkdtempSync(join(tmpdir(), "postern-certfiles-"));
let app: App;
let ports: { http: number; smtp: number };

/** A self-signed certificate for NAME made by openssl; returns its PEM files' text. */
function makeCert(tag: string): { cert: string; key: string } {
  const r = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
    "-subj", `/CN=${NAME}`, "-addext", `subjectAltName=DNS:${NAME}`, "-keyout", join(dir, `${tag}.key`), "-out", join(dir, `${tag}.pem`)]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return { cert: readFileSync(join(dir, `${tag}.pem`), "utf8"), key: readFileSync(join(dir, `${tag}.key`), "utf8") };
}

/** Replaces the configured files the way an operator's tool does: a new file renamed over the old. */
function install(pair: { cert: string; key: string }) {
  writeFileSync(join(dir, "new.key"), pair.key);
  writeFileSync(join(dir, "new.crt"), pair.cert);
  renameSync(join(dir, "new.key"), join(dir, "tls.key"));
  renameSync(join(dir, "new.crt"), join(dir, "tls.crt"));
}

beforeAll(async () => {
  ports = { http: await freePort(), smtp: await freePort() };
  install(makeCert("first"));
  writeFileSync(join(dir, "postern.toml"), `[server]\nlisten = "127.0.0.1:${ports.http}"\n[smtp]\nlisten = "127.0.0.1:${ports.smtp}"\n` +
    `[mta]\nhostname = "${NAME}"\n[tls]\ncert_file = "tls.crt"\nkey_file = "tls.key"\nreload_interval = "1s"\n`);
  app = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { log: createLogger({ level: "silent" }) });
  await app.start();
});

afterAll(async () => { await app?.stop(); });

test("HTTPS and STARTTLS present the configured certificate from the start", async () => {
  const want = certInfo(readFileSync(join(dir, "tls.crt"), "utf8")).serial;
  expect((await httpsPresents(ports.http, NAME)).serial).toBe(want);
  expect((await starttlsPresents(ports.smtp, NAME)).serial).toBe(want);
  expect((await healthOn(ports.http)).tls).toMatchObject({ state: "ok" });
});

test("a replaced certificate file is served within 60 s without a restart, by both listeners", async () => {
  const next = makeCert("second");
  const want = certInfo(next.cert).serial;
  expect((await httpsPresents(ports.http, NAME)).serial).not.toBe(want);
  install(next);
  const installed = Date.now();
  await until("served serial", async () => (await httpsPresents(ports.http, NAME)).serial, (s) => s === want, 60);
  expect(Date.now() - installed).toBeLessThan(6_000); // by a read of reload_interval (1 s), not the default 10 s
  expect((await starttlsPresents(ports.smtp, NAME)).serial).toBe(want);
}, 70_000);

test("a key that does not match is refused and reported; the old certificate keeps serving", async () => {
  const served = (await httpsPresents(ports.http, NAME)).serial;
  const other = makeCert("third");
  writeFileSync(join(dir, "tls.key"), other.key); // the certificate file still holds the second one
  const written = Date.now();
  const h = await until("tls state", () => healthOn(ports.http), (x) => x.tls?.state === "error", 30);
  expect(Date.now() - written).toBeLessThan(6_000);
  expect(h.tls?.error).toMatch(/do not match/);
  expect((await httpsPresents(ports.http, NAME)).serial).toBe(served);
}, 40_000);
