// `postern domain set NAME --tracking-host HOST` as real CLI processes: accepted before its record
// exists (pending), shown by `domain show` and printed by `domain dns`; "" goes back to email.NAME.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-domain-tracking-"));

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}
const trackingRecord = () => (JSON.parse(cli("--json", "domain", "dns", "example.com").out) as { records: { purpose: string; name: string; type: string }[] })
  .records.find((r) => r.purpose === "tracking");

beforeAll(() => {
  expect(cli("init").code).toBe(0);
  expect(cli("domain", "add", "example.com").code).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("email.NAME by default; --tracking-host sets another, pending until the server sees it resolve here", () => {
  expect(JSON.parse(cli("--json", "domain", "show", "example.com").out)).toMatchObject({ tracking_host: "email.example.com", tracking_state: "pending" });
  expect(trackingRecord()?.name).toBe("email.example.com");
  const set = cli("--json", "domain", "set", "example.com", "--tracking-host", "links.example.com", "--open-tracking", "on");
  expect(set.code).toBe(0);
  expect(JSON.parse(set.out)).toMatchObject({ tracking_host: "links.example.com", tracking_state: "pending", open_tracking: true });
  expect(trackingRecord()?.name).toBe("links.example.com");
  expect(cli("domain", "show", "example.com").out).toMatch(/tracking_host\s+links\.example\.com/);
}, 30_000);

test("a bad host is refused with a message and exit 1, and nothing changes; \"\" goes back to the default", () => {
  const bad = cli("domain", "set", "example.com", "--tracking-host", "not a host");
  expect(bad.code).not.toBe(0);
  expect(bad.err).toContain("not a valid host name");
  expect(JSON.parse(cli("--json", "domain", "show", "example.com").out).tracking_host).toBe("links.example.com");
  expect(JSON.parse(cli("--json", "domain", "set", "example.com", "--tracking-host", "").out).tracking_host).toBe("email.example.com");
}, 30_000);
