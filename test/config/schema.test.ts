import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderConfigTemplate } from "../../src/config/schema.ts";
import { ConfigError, findConfigFile, loadConfig } from "../../src/config/load.ts";

const dir = mkdtempSync(join(tmpdir(), "postern-config-"));
function load(text: string, env: Record<string, string> = {}) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, text);
  return loadConfig({ file, env });
}
function problems(text: string, env: Record<string, string> = {}): string[] {
  try { load(text, env); } catch (e) { if (e instanceof ConfigError) return e.problems; throw e; }
  return [];
}

describe("the config schema", () => {
  test("config/postern.example.toml is the rendering of the schema (regenerate with bun run gen:config)", () => {
    expect(readFileSync(join(import.meta.dir, "../../config/postern.example.toml"), "utf8")).toBe(renderConfigTemplate());
  });
  test("the rendered template loads and gives the contract's defaults", () => {
    const c = load(renderConfigTemplate());
    expect(c.server.listen).toBe("127.0.0.1:8025");
    expect(c.smtp.listen).toBe("127.0.0.1:2525");
    expect(c.mta.retry[0]).toBe(60_000);
    expect(c.mta.max_queue_lifetime).toBe(5 * 86_400_000);
    expect(c.zones.names).toEqual(["us", "eu"]);
  });
  test("[retention]: the contract's defaults (30d, 30d, 3d, audit 400d); \"0\" is forever", () => {
    expect(load(renderConfigTemplate()).retention).toEqual({ events: 30 * 86_400_000, messages: 30 * 86_400_000, inbound: 3 * 86_400_000, audit: 400 * 86_400_000 });
    expect(load(`[retention]\nevents = "0"\nmessages = "5s"\naudit = "1d"\n`).retention).toEqual({ events: 0, messages: 5_000, inbound: 3 * 86_400_000, audit: 86_400_000 });
    expect(load("", { POSTERN_RETENTION_INBOUND: "0" }).retention.inbound).toBe(0);
    expect(problems(`[retention]\nevents = "forever"\n`)[0]).toMatch(/retention\.events: expected a duration/);
  });
  test("no file means embedded defaults with data in ./postern-data", () => {
    const c = loadConfig({ file: null, env: {}, cwd: "/srv/x" });
    expect(c.storage.data_dir).toBe("/srv/x/postern-data");
  });
  test("relative paths are relative to the config file", () => {
    expect(load(`[storage]\ndata_dir = "data"\n`).storage.data_dir).toBe(join(dir, "data"));
  });
  test("the result is frozen", () => {
    const c = load("");
    expect(Object.isFrozen(c.server)).toBe(true);
  });
});

describe("bad config files name the file, the key and the problem", () => {
  test("a syntax error", () => {
    const p = problems("[server\nlisten = 1");
    expect(p[0]).toMatch(/\.toml: syntax error/);
  });
  test("an unknown key", () => expect(problems(`[server]\nlisen = "x"\n`)[0]).toMatch(/\.toml: server\.lisen: unknown key$/));
  test("an unknown section", () => expect(problems(`[nope]\na = 1\n`)[0]).toMatch(/\[nope\]: unknown section/));
  test("a wrong type", () => expect(problems(`[smtp]\nallow_insecure_auth = "yes"\n`)[0]).toMatch(/smtp\.allow_insecure_auth: expected true or false/));
  test("a bad duration", () => expect(problems(`[mta]\nmax_queue_lifetime = "5 days"\n`)[0]).toMatch(/mta\.max_queue_lifetime: expected a duration/));
  test("a bad retry list", () => expect(problems(`[mta]\nretry = ["1m", "soon"]\n`)[0]).toMatch(/mta\.retry: expected durations/));
  test("a listen address without a port", () => expect(problems(`[server]\nlisten = "localhost"\n`)[0]).toMatch(/server\.listen: expected host:port/));
  test("a default zone that is not configured", () => expect(problems(`[zones]\nnames = ["us"]\ndefault = "eu"\n`)[0]).toMatch(/zones\.default/));
  test("every problem is reported, not only the first", () => expect(problems(`[server]\nlisen = 1\n[mta]\nretry = 3\n`).length).toBe(2));
  test("a remote zone that is not in zones.names", () => expect(problems(`[zones]\nnames = ["us"]\n[zones.eu]\nurl = "https://eu.example"\n`)[0]).toMatch(/zones\.eu/));
  test("a webhook probe interval or a TLS file reload interval under 100ms, an alerts interval under 1s", () => {
    expect(problems(`[webhooks]\nprobe_interval = "10ms"\n`)[0]).toMatch(/webhooks\.probe_interval: at least 100ms/);
    expect(problems(`[webhooks]\nprobe_interval = "100ms"\n`)).toEqual([]);
    expect(problems(`[tls]\nreload_interval = "0s"\n`)[0]).toMatch(/tls\.reload_interval: at least 100ms/);
    expect(problems(`[alerts]\ninterval = "500ms"\n`)[0]).toMatch(/alerts\.interval: at least 1s/);
  });
  test("a bad route", () => expect(problems(`[mta.routes]\n"x.org" = "a b"\n`)[0]).toMatch(/mta\.routes\."x\.org"/));
  test("[alerts]: an http(s) webhook URL and e-mail addresses", () => {
    expect(problems(`[alerts]\nwebhook = "ops.example.com/hook"\n`)[0]).toMatch(/alerts\.webhook: expected an http\(s\) URL/);
    expect(problems(`[alerts]\nemail = ["ops@example.com", "ops"]\n`)).toEqual([expect.stringMatching(/alerts\.email: expected e-mail addresses, got "ops"$/)]);
    expect(load(`[alerts]\nwebhook = "https://ops.example.com/hook"\nemail = ["ops@example.com"]\n`).alerts).toEqual({ webhook: "https://ops.example.com/hook", email: ["ops@example.com"], interval: 60_000 });
  });
  test("[tls]: ACME or files, not both; files in pairs; http_listen as host:port", () => {
    expect(problems(`[tls]\nacme = true\ncert_file = "a"\nkey_file = "b"\n`)[0]).toMatch(/tls\.acme and tls\.cert_file: choose one/);
    expect(problems(`[tls]\ncert_file = "a"\n`)[0]).toMatch(/tls\.cert_file and tls\.key_file/);
    expect(problems(`[tls]\nhttp_listen = "80"\n`)[0]).toMatch(/tls\.http_listen: expected host:port/);
    expect(problems(`[tls]\nacme = true\nacme_directory = "http://ca.test/dir"\n`)[0]).toMatch(/tls\.acme_directory: expected an https URL/);
    const c = load(`[tls]\ncert_file = "certs/a.pem"\nkey_file = "/abs/a.key"\n`);
    expect(c.tls.cert_file).toBe(join(dir, "certs/a.pem")); // relative to the config file
    expect(c.tls.key_file).toBe("/abs/a.key");
  });
});

describe("environment overrides", () => {
  test("POSTERN_<SECTION>_<KEY> overrides single keys", () => {
    const c = load(`[server]\nlisten = "127.0.0.1:1"\n`, { POSTERN_SERVER_LISTEN: "127.0.0.1:9999", POSTERN_MTA_RETRY: "5s,10s", POSTERN_SMTP_ALLOW_INSECURE_AUTH: "true" });
    expect(c.server.listen).toBe("127.0.0.1:9999");
    expect(c.mta.retry).toEqual([5000, 10000]);
    expect(c.smtp.allow_insecure_auth).toBe(true);
  });
  test("a bad environment value names the variable", () => {
    expect(problems("", { POSTERN_MTA_MAX_QUEUE_LIFETIME: "forever" })[0]).toMatch(/^POSTERN_MTA_MAX_QUEUE_LIFETIME: mta\.max_queue_lifetime/);
  });
  test("--config, then $POSTERN_CONFIG, then the default paths", () => {
    expect(findConfigFile("/a.toml", { POSTERN_CONFIG: "/b.toml" })).toBe("/a.toml");
    expect(findConfigFile(undefined, { POSTERN_CONFIG: "/b.toml" })).toBe("/b.toml");
  });
});
