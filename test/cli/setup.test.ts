// The foundation's acceptance sequence, through the real CLI in a fresh directory: init, domain
// add, domain dns --json, domain verify --force, key create --json, serve answering /healthz and
// each surface answering 401 in its own shape to a wrong key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-cli-"));
let server: ReturnType<typeof Bun.spawn> | null = null;

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

beforeAll(() => {
  expect(cli("init", "--json").code).toBe(0);
  // Random ports so tests never collide with a running postern.
  const file = join(dir, "postern.toml");
  writeFileSync(file, readFileSync(file, "utf8").replace('listen = "127.0.0.1:8025"', 'listen = "127.0.0.1:0"').replace('listen = "127.0.0.1:2525"', 'listen = "127.0.0.1:0"'));
});
afterAll(() => { server?.kill(); rmSync(dir, { recursive: true, force: true }); });

describe("set-up through the CLI", () => {
  test("init wrote a config and refuses to overwrite it", () => {
    const again = cli("init");
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists/);
  });

  test("domain add, dns --json, verify --force, key create --json", () => {
    expect(cli("domain", "add", "example.com").code).toBe(0);
    const dns = JSON.parse(cli("--json", "domain", "dns", "example.com").out);
    expect(dns.records.find((r: { name: string }) => r.name === "s1._domainkey.example.com").value).toMatch(/^v=DKIM1; k=rsa; p=/);
    const verify = cli("domain", "verify", "example.com", "--force", "--json");
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.out).domain.state).toBe("active");
    const key = JSON.parse(cli("key", "create", "--domain", "example.com", "--json").out);
    expect(key).toMatchObject({ kind: "domain", domain: "example.com" });
    expect(key.key).toMatch(/^sk\./);
    expect(cli("key", "list", "--json").out).not.toContain(key.key);
  }, 30_000); // six CLI processes of about a second each on a loaded machine

  test("--json puts only data on stdout; errors are one line on stderr with exit 1; usage errors exit 2", () => {
    const list = cli("domain", "list", "--json");
    expect(() => JSON.parse(list.out)).not.toThrow();
    const missing = cli("domain", "show", "nope.example");
    expect(missing.code).toBe(1);
    expect(missing.err.trim().split("\n")).toHaveLength(1);
    expect(cli("domain", "frobnicate").code).toBe(2);
    expect(cli("key", "create").code).toBe(2);
  }, 30_000);

  test("a bad config refuses to start, naming the file and the key", () => {
    const bad = join(dir, "bad.toml");
    writeFileSync(bad, `[server]\nlisen = "x"\n`);
    const r = cli("--config", bad, "serve");
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}: server.lisen: unknown key`);
  });

  test("serve answers /healthz, and every surface answers a wrong key with 401 in its own shape", async () => {
    server = Bun.spawn(["bun", MAIN, "serve"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!/http (\S+)/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    const base = `http://${/http (\S+?),/.exec(text)![1]}`;
    expect(await (await fetch(`${base}/healthz`)).json()).toMatchObject({ status: "ok" });
    const sg = await fetch(`${base}/v3/mail/send`, { method: "POST", headers: { authorization: "Bearer wrong" } });
    expect([sg.status, ((await sg.json()) as { errors: { field: null }[] }).errors[0]!.field]).toEqual([401, null]);
    const mg = await fetch(`${base}/v3/example.com/messages`, { method: "POST", headers: { authorization: `Basic ${btoa("api:wrong")}` } });
    expect([mg.status, await mg.text()]).toEqual([401, "Forbidden"]);
    const sp = await fetch(`${base}/api/v1/transmissions`, { method: "POST", headers: { authorization: "wrong" } });
    expect([sp.status, ((await sp.json()) as { errors: { code: string }[] }).errors[0]!.code]).toEqual([401, "1001"]);
    const nat = await fetch(`${base}/test`, { headers: { "ov-token": "wrong" } });
    expect([nat.status, ((await nat.json()) as { message: string }).message]).toEqual([401, "Unauthorized"]);
  }, 30_000);
});

describe("one server per data directory", () => {
  test("a second serve on the same data dir is refused while the first runs", () => {
    expect(server).not.toBeNull(); // started by the test above and still running
    const second = cli("serve");
    expect(second.code).toBe(1);
    expect(second.err).toMatch(/another postern server is running/);
  });
});
