// `domain verify` against a real DNS server (dnsmasq) publishing exactly what `domain dns` prints,
// the 2048-bit DKIM key split into several strings of one TXT record as DNS hosts publish it:
// the domain becomes active without --force, and a record carrying another key is refused by name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { splitTxt, startDnsmasq, type DnsmasqServer, type ZoneRecord } from "../helpers/dnsmasq.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-verify-"));
let dns: DnsmasqServer;

interface Printed { type: ZoneRecord["type"]; name: string; value: string; priority?: number; purpose: string; valid?: string }

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

const printed = (domain: string): Printed[] => JSON.parse(cli("--json", "domain", "dns", domain).out).records;

/** What a DNS host publishes for a printed record: TXT values longer than 255 octets in several strings. */
const published = (r: Printed): ZoneRecord =>
  r.type === "TXT" ? { type: "TXT", name: r.name, strings: splitTxt(r.value) } : { type: r.type, name: r.name, value: r.value, priority: r.priority };

beforeAll(async () => {
  expect(cli("init").code).toBe(0);
  expect(cli("domain", "add", "example.com").code).toBe(0);
  expect(cli("domain", "add", "wrong.example.com").code).toBe(0);
  const good = printed("example.com");
  const wrong = printed("wrong.example.com");
  const otherKey = good.find((r) => r.name === "s1._domainkey.example.com")!.value;
  dns = await startDnsmasq([
    ...good.map(published),
    ...wrong.map((r) => published(r.name === "s1._domainkey.wrong.example.com" ? { ...r, value: otherKey } : r)),
  ]);
  const file = join(dir, "postern.toml");
  writeFileSync(file, readFileSync(file, "utf8").replace("dns_servers = []", `dns_servers = ["${dns.server}"]`));
}, 60_000); // several CLI processes of about a second each on a loaded machine
afterAll(async () => { await dns?.stop(); rmSync(dir, { recursive: true, force: true }); });

describe("domain verify through real DNS", () => {
  test("the printed DKIM record does need several strings", () => {
    const dkim = printed("example.com").find((r) => r.purpose === "dkim" && r.value.includes("k=rsa"))!;
    expect(splitTxt(dkim.value).length).toBeGreaterThan(1);
  }, 30_000);

  test("records published as printed activate the domain without --force", () => {
    const r = cli("--json", "domain", "verify", "example.com");
    // Only the warnings about the defaults this test keeps ([mta] hostname, [server] public_url).
    expect(r.err.split("\n").filter((l) => l && !l.startsWith("postern: warning:") && !l.startsWith("  "))).toEqual([]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { domain: { state: string }; records: Printed[] };
    expect(out.domain.state).toBe("active");
    const byPurpose = Object.fromEntries(out.records.map((x) => [`${x.purpose} ${x.name}`, x.valid]));
    expect(byPurpose).toMatchObject({ "dkim s1._domainkey.example.com": "valid", "spf example.com": "valid",
      "dmarc _dmarc.example.com": "valid", "bounce-mx bounces.example.com": "valid" });
  }, 30_000);

  test("a DKIM record carrying another key is refused, by name", () => {
    const r = cli("domain", "verify", "wrong.example.com");
    expect(r.code).toBe(1);
    expect(r.err).toContain("required records not found: s1._domainkey.wrong.example.com");
    expect(r.out).toMatch(/s1\._domainkey\.wrong\.example\.com.*invalid/);
  }, 30_000);
});
