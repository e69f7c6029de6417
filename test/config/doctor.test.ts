// [doctor] and [blocklists]: the contract's defaults, values read from the file and the
// environment, and each bad value named with its key.
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/load.ts";

function load(text: string, env: Record<string, string> = {}) {
  const file = join(mkdtempSync(join(tmpdir(), "postern-doctor-cfg-")), "postern.toml");
  writeFileSync(file, text);
  return loadConfig({ file, env });
}
function problems(text: string): string[] {
  try { load(text); } catch (e) { if (e instanceof ConfigError) return e.problems; throw e; }
  return [];
}

test("defaults are contract §13's", () => {
  const c = load("");
  expect(c.doctor).toEqual({ interval: 3_600_000, port25_probe: "gmail-smtp-in.l.google.com:25", public_addresses: [] });
  expect(c.blocklists).toEqual({ ip_zones: ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org", "psbl.surriel.com", "bl.mailspike.net"],
    domain_zones: ["dbl.spamhaus.org"], spamhaus_dqs_key: "" });
});

test("values from the file and the environment; interval 0 is on demand only", () => {
  const c = load(`[doctor]\ninterval = "0"\nport25_probe = "[2001:db8::1]:25"\npublic_addresses = ["203.0.113.5", "2001:db8::5"]\n[blocklists]\nip_zones = ["bl.example"]\ndomain_zones = []\n`,
    { POSTERN_BLOCKLISTS_SPAMHAUS_DQS_KEY: "abc123" });
  expect(c.doctor).toEqual({ interval: 0, port25_probe: "[2001:db8::1]:25", public_addresses: ["203.0.113.5", "2001:db8::5"] });
  expect(c.blocklists).toEqual({ ip_zones: ["bl.example"], domain_zones: [], spamhaus_dqs_key: "abc123" });
});

test("bad values are refused with their key", () => {
  expect(problems(`[doctor]\npublic_addresses = ["mail.example.com"]\nport25_probe = "a b:25"\ninterval = "often"\n`)).toEqual([
    expect.stringMatching(/doctor\.interval: expected a duration/), expect.stringMatching(/doctor\.port25_probe: expected host\[:port\]/),
    expect.stringMatching(/doctor\.public_addresses: "mail\.example\.com" is not an IPv4 or IPv6 address/)]);
  expect(problems(`[blocklists]\nip_zones = ["bad zone"]\nspamhaus_dqs_key = "a.b"\n`)).toEqual([
    expect.stringMatching(/blocklists\.ip_zones: "bad zone" is not a DNS zone name/), expect.stringMatching(/blocklists\.spamhaus_dqs_key/)]);
});
