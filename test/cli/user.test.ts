// `postern user …` through the real CLI: add with a piped password and with a generated one, list
// as JSON in the contract's shape, a role refused, reset, rm; each change in the audit log as the
// operator's. The password really works: the service's sign-in check accepts it.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-user-cli-"));
const file = join(dir, "postern.toml");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
setDefaultTimeout(60_000);
writeFileSync(file, `[mta]\nhostname = "mta.test"\n`);

function cli(args: string[], stdin?: string) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", file, ...args], { cwd: dir, stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
    env: { ...process.env, POSTERN_CONFIG: "", SUDO_USER: "ops" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

async function signInWorks(email: string, password: string): Promise<boolean> {
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  try { return Boolean(await app.team.users.authenticate(email, password).catch(() => null)); } finally { await app.stop(); }
}

test("add, list, reset and rm; every change is in the audit log", async () => {
  expect(cli(["user", "add", "Owner@Example.com", "--role", "owner", "--password-stdin"], "correct horse battery\n").code).toBe(0);
  const gen = cli(["--json", "user", "add", "amy@example.com", "--role", "analyst", "--tenant", "0"]);
  expect(gen.code).toBe(0);
  const generated = JSON.parse(gen.out).password as string;
  expect(generated.length).toBeGreaterThanOrEqual(12);
  const bad = cli(["user", "add", "x@example.com", "--role", "boss"]);
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/role must be owner, admin, developer or analyst/);
  expect(cli(["user", "add", "owner@example.com", "--role", "admin"]).err).toMatch(/already exists/);

  const list = JSON.parse(cli(["--json", "user", "list"]).out);
  expect(list).toEqual({ users: [
    { id: expect.any(String), email: "amy@example.com", role: "analyst", tenant: 0, totp: false, oidc: false },
    { id: expect.any(String), email: "owner@example.com", role: "owner", tenant: null, totp: false, oidc: false },
  ] });
  expect(cli(["user", "list"]).out).toMatch(/owner@example\.com\s+owner\s+all\s+false\s+false/);
  expect(await signInWorks("owner@example.com", "correct horse battery")).toBe(true);
  expect(await signInWorks("amy@example.com", generated)).toBe(true);

  const reset = JSON.parse(cli(["--json", "user", "reset", "owner@example.com"]).out).password as string;
  expect(await signInWorks("owner@example.com", "correct horse battery")).toBe(false);
  expect(await signInWorks("owner@example.com", reset)).toBe(true);
  expect(cli(["user", "rm", "amy@example.com"]).code).toBe(0);
  expect(cli(["user", "rm", "amy@example.com"]).code).toBe(1);
  expect(JSON.parse(cli(["--json", "user", "list"]).out).users.length).toBe(1);

  const audit = JSON.parse(cli(["--json", "audit", "--action", "user"]).out).items as { action: string; target: string; actor: { kind: string; id: string } }[];
  expect(audit.map((e) => `${e.action} ${e.target}`)).toEqual(["user.remove amy@example.com", "user.reset owner@example.com",
    "user.add amy@example.com", "user.add owner@example.com"]);
  expect(audit.every((e) => e.actor.kind === "cli" && e.actor.id === "ops")).toBe(true);
});

test("--tenant names a tenant that exists (id or name): a user is never bound to a tenant made later under that id", () => {
  const refused = cli(["user", "add", "future@example.com", "--role", "owner", "--tenant", "7"]);
  expect(refused.code).toBe(1);
  expect(refused.err).toContain("tenant 7 not found");
  expect(cli(["tenant", "add", "acme"]).code).toBe(0);
  const made = JSON.parse(cli(["--json", "user", "add", "ann@acme.test", "--role", "admin", "--tenant", "acme"]).out) as { tenant: number };
  expect(made.tenant).toBeGreaterThan(0);
  const users = (JSON.parse(cli(["--json", "user", "list"]).out) as { users: { email: string }[] }).users;
  expect(users.some((u) => u.email === "future@example.com")).toBe(false);
});
