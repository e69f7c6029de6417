// [console] and [console.oidc]: defaults, the table read into config.console.oidc, environment
// overrides, and the issuer refused unless https (or http on a loopback address) with a client id.
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/load.ts";

const dir = mkdtempSync(join(tmpdir(), "postern-config-console-"));
function load(text: string, env: Record<string, string> = {}) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, text);
  return loadConfig({ file, env });
}
function problems(text: string): string[] {
  try { load(text); } catch (e) { if (e instanceof ConfigError) return e.problems; throw e; }
  return [];
}

test("defaults: no TOTP requirement, no single sign-on", () => {
  expect(load("").console).toEqual({ require_totp: false, invite_from: "", oidc: { issuer: "", client_id: "", client_secret: "", auto_create: false } });
});

test("[console.oidc] is read into config.console.oidc; POSTERN_CONSOLE_OIDC_* override it", () => {
  const c = load(`[console]\nrequire_totp = true\n[console.oidc]\nissuer = "https://login.example.com"\nclient_id = "postern"\nauto_create = true\n`,
    { POSTERN_CONSOLE_OIDC_CLIENT_SECRET: "s3cret" });
  expect(c.console).toEqual({ require_totp: true, invite_from: "", oidc: { issuer: "https://login.example.com", client_id: "postern", client_secret: "s3cret", auto_create: true } });
});

test("the issuer must be https, or http on a loopback address, and needs a client id", () => {
  expect(problems(`[console.oidc]\nissuer = "http://127.0.0.1:9000"\nclient_id = "x"\n`)).toEqual([]);
  expect(problems(`[console.oidc]\nissuer = "http://login.example.com"\nclient_id = "x"\n`)[0]).toMatch(/console\.oidc\.issuer: expected an https URL/);
  expect(problems(`[console.oidc]\nissuer = "https://login.example.com"\n`)[0]).toMatch(/console\.oidc\.client_id: needed/);
  expect(problems(`[console.oidc]\nissuers = "https://x"\n`)[0]).toMatch(/console\.oidc\.issuers: unknown key/);
});
