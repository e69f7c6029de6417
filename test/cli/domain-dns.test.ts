// `domain dns` and `domain verify` for a newcomer, as real CLI processes: a table that fits 80
// columns (values whole in --json), SPF naming what DNS knows, and a warning on stderr while
// [mta] hostname or [server] public_url still hold their defaults.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-domain-dns-"));

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

beforeAll(() => {
  expect(cli("init").code).toBe(0);
  expect(cli("domain", "add", "example.com").code).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("domain dns on the defaults", () => {
  test("fits 80 columns, shortening the DKIM keys; --json has them whole", () => {
    const human = cli("domain", "dns", "example.com");
    expect(human.code).toBe(0);
    const lines = human.out.trimEnd().split("\n");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(human.out).toContain("…");
    const json = JSON.parse(cli("--json", "domain", "dns", "example.com").out) as { records: { purpose: string; value: string }[] };
    const dkim = json.records.find((r) => r.purpose === "dkim" && r.value.includes("k=rsa"))!;
    expect(dkim.value.length).toBeGreaterThan(300);
    expect(JSON.stringify(json)).not.toContain("…");
  }, 30_000);

  test("SPF never names a bare machine name; both defaults are warned about on stderr", () => {
    const r = cli("--json", "domain", "dns", "example.com");
    const spf = (JSON.parse(r.out) as { records: { purpose: string; value: string }[] }).records.find((x) => x.purpose === "spf")!.value;
    expect(spf).toMatch(/^v=spf1 (ip4|ip6):\S+ ~all$/);
    if (!hostname().includes(".")) expect(spf).not.toContain(`a:${hostname()}`);
    expect(r.err).toContain("[mta] hostname is not set");
    expect(r.err).toContain("[server] public_url is still its default");
    const verify = cli("domain", "verify", "example.com", "--force");
    expect(verify.code).toBe(0);
    expect(verify.err).toContain("[mta] hostname is not set");
    expect(Math.max(...verify.err.split("\n").map((l) => l.length))).toBeLessThanOrEqual(80);
  }, 30_000);
});

describe("domain dns once configured", () => {
  test("SPF names [mta] hostname and nothing is warned about", () => {
    const file = join(dir, "postern.toml");
    writeFileSync(file, readFileSync(file, "utf8")
      .replace(/^public_url = .*$/m, 'public_url = "https://mail.example.com"')
      .replace(/^#? ?hostname = .*$/m, 'hostname = "mail.example.com"'));
    const r = cli("--json", "domain", "dns", "example.com");
    expect(r.code).toBe(0);
    const spf = (JSON.parse(r.out) as { records: { purpose: string; value: string }[] }).records.find((x) => x.purpose === "spf")!.value;
    expect(spf).toBe("v=spf1 a:mail.example.com ~all");
    expect(r.err).toBe("");
  }, 30_000);
});
