// `postern doctor` and `postern blocklists` through the real CLI, over a real dnsmasq publishing
// the domain's own DKIM keys: a clean report exits 0, one error (port 25 refused) exits 1.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load.ts";
import { createLogger } from "../../src/log.ts";
import { startWorld } from "../doctor/fixture.ts";
import { freePort } from "../helpers/free-port.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-doctor-cli-"));
const file = join(dir, "postern.toml");
setDefaultTimeout(60_000);
let world: Awaited<ReturnType<typeof startWorld>>;
let greeter: Server;

// DANE off: this world's DNS (dnsmasq) does not validate, which the dnssec check reports on its own (test/doctor/checks/dnssec.test.ts).
const toml = (extra = "") => `[storage]\ndata_dir = "${dir}/data"\n[mta]\nhostname = "mta.good.test"\ndane = "off"\n${extra}`
  + `[mta.egress.ip5]\nsource_address = "127.0.0.5"\n[mta.pools.default]\nsources = ["ip5"]\n`;

beforeAll(async () => {
  writeFileSync(file, toml());
  // The domain and its keys first; then DNS publishes exactly those keys.
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "warn" }) });
  const d = await app.domains.add("good.test");
  const keys = await app.store.control.getDkimKeys(d.id);
  await app.stop();
  world = await startWorld(keys);
  greeter = createServer((s) => s.write("220 probe.test ESMTP\r\n"));
  await new Promise<void>((r) => greeter.listen(0, "127.0.0.1", r));
  writeFileSync(file, toml(`dns_servers = ["${world.dns.server}"]\n`)
    + `[doctor]\nport25_probe = "127.0.0.1:${(greeter.address() as { port: number }).port}"\n[blocklists]\nip_zones = ["bl.test"]\ndomain_zones = ["dbl.test"]\n`);
});
afterAll(async () => {
  await world.stop();
  greeter.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Spawned without blocking: the port-25 listener lives in this process and must answer meanwhile. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(["bun", MAIN, "--config", file, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "", ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

test("doctor: a clean report exits 0; --json is {checks:[{id,subject,severity,summary,fix,data}]}", async () => {
  const r = await cli(["--json", "doctor"]);
  const { checks } = JSON.parse(r.out) as { checks: { id: string; subject: string; severity: string }[] };
  expect(checks.filter((c) => c.severity !== "ok").map((c) => `${c.id} ${c.subject} ${c.severity} ${(c as any).summary}`)).toEqual([]);
  expect(r.code).toBe(0);
  expect([...new Set(checks.map((c) => c.id))].sort()).toEqual(["blocklist", "bounce-mx", "dkim", "dmarc", "dnssec", "port25", "ptr", "spf", "tracking"]);
  const human = await cli(["doctor", "--domain", "good.test"]);
  expect(human.code).toBe(0);
  expect(human.out).toMatch(/ok\s+ptr\s+127\.0\.0\.5/);
});

test("doctor: one error exits 1 and says the fix; an unknown domain is refused", async () => {
  const closed = await freePort();
  const r = await cli(["doctor"], { POSTERN_DOCTOR_PORT25_PROBE: `127.0.0.1:${closed}` });
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/ERROR\s+port25\s+127\.0\.0\.1:\d+/);
  expect(r.out).toMatch(/fix: ask your hosting provider to open outbound port 25/);
  const nope = await cli(["doctor", "--domain", "nope.test"]);
  expect(nope.code).not.toBe(0);
  expect(nope.err).toMatch(/nope\.test not found/);
});

test("blocklists --json: every egress address and host in every zone, with first_seen and last_seen", async () => {
  const r = await cli(["--json", "blocklists"]);
  expect(r.code).toBe(0);
  const { items } = JSON.parse(r.out) as { items: Record<string, string>[] };
  expect(items.map((i) => `${i.subject} ${i.kind} ${i.zone} ${i.state}`).sort()).toEqual([
    "127.0.0.5 ip bl.test clear", "bounces.good.test domain dbl.test clear", "email.good.test domain dbl.test clear", "good.test domain dbl.test clear"]);
  expect(items.every((i) => Date.parse(i.first_seen!) <= Date.parse(i.last_seen!))).toBe(true);
});
