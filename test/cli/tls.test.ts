// `postern tls status` and `postern tls renew --force` through the real CLI, against a real
// `postern serve` and Pebble: the renewal goes through the running server (same process, new
// serial served), and, with no server running, the CLI renews by itself.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { startPebble, type PebbleServer } from "../helpers/pebble.ts";
import { freePort } from "../helpers/free-port.ts";
import { httpsPresents } from "../helpers/tls-probe.ts";
import { NAME, healthOn, until, writeAcmeConfig, type TlsPorts } from "../helpers/tls-setup.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-tls-cli-"));
let dns: DnsmasqServer;
let pebble: PebbleServer;
let ports: TlsPorts;
let server: ReturnType<typeof Bun.spawn> | null = null;

const cli = async (...args: string[]) => {
  const p = Bun.spawn(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, out, err };
};

beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: NAME, value: "127.0.0.1" }]);
  ports = { http: await freePort(), smtp: await freePort(), redirect: await freePort() };
  pebble = await startPebble({ httpPort: ports.redirect, dnsServer: dns.server });
  writeAcmeConfig(dir, ports, pebble);
  server = Bun.spawn(["bun", MAIN, "--config", join(dir, "postern.toml"), "serve"], { stdout: "ignore", stderr: "ignore" });
  await until("tls state", () => healthOn(ports.http).catch(() => ({ tls: undefined })), (h) => h.tls?.state === "ok", 90);
}, 120_000);

afterAll(async () => {
  server?.kill();
  await server?.exited;
  await pebble?.stop();
  await dns?.stop();
});

test("tls status --json lists the certificate the server presents", async () => {
  const served = await httpsPresents(ports.http, NAME);
  const r = await cli("tls", "status", "--json");
  expect(r.code).toBe(0);
  const body = JSON.parse(r.out);
  expect(body.certificates).toHaveLength(1);
  expect(body.certificates[0]).toMatchObject({ names: [NAME], serial: served.serial });
  expect(body.certificates[0].issuer).toMatch(/Pebble/);
  expect(Date.parse(body.certificates[0].not_after)).toBeGreaterThan(0);
  // `postern status` reaches the server over HTTPS too.
  expect(JSON.parse((await cli("status", "--json")).out).tls).toMatchObject({ state: "ok" });
});

test("tls renew --force swaps a new serial into the running server, without a restart", async () => {
  const before = (await httpsPresents(ports.http, NAME)).serial;
  const pid = server!.pid;
  const r = await cli("tls", "renew", "--force", "--json");
  expect(r.code).toBe(0);
  const result = JSON.parse(r.out);
  expect(result).toMatchObject({ ok: true });
  expect(result.here).toBeUndefined();
  expect(result.serial).not.toBe(before);
  expect((await httpsPresents(ports.http, NAME)).serial).toBe(result.serial);
  expect(server!.pid).toBe(pid);
  expect(server!.exitCode).toBeNull();
}, 60_000);

test("with no server running, tls renew renews by itself; a failure exits 1", async () => {
  server!.kill();
  await server!.exited;
  server = null;
  const before = JSON.parse((await cli("tls", "status", "--json")).out).certificates[0].serial;
  const r = await cli("tls", "renew", "--force", "--json");
  expect(r.code).toBe(0);
  expect(JSON.parse(r.out)).toMatchObject({ ok: true, here: true });
  expect(JSON.parse((await cli("tls", "status", "--json")).out).certificates[0].serial).not.toBe(before);
  await pebble.stop();
  const failed = await cli("tls", "renew", "--force");
  expect(failed.code).toBe(1);
  expect(failed.out).toMatch(/renewal failed: .*unreachable/);
}, 60_000);
