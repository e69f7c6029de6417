import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/load.ts";

function load(text: string) {
  const file = join(mkdtempSync(join(tmpdir(), "postern-egress-")), "postern.toml");
  writeFileSync(file, text);
  return { file, config: () => loadConfig({ file, env: {} }) };
}
function problems(text: string): string[] {
  const { config } = load(text);
  try { config(); } catch (e) { if (e instanceof ConfigError) return e.problems; throw e; }
  return [];
}

describe("[mta.egress] and [mta.pools]", () => {
  test("read into config.mta", () => {
    const c = load(`[mta.egress.ip1]\nsource_address = "203.0.113.10"\nehlo = "mta1.example.com"\nwarmup_start = "2026-11-26"\n[mta.egress.ip2]\nsource_address = "2001:db8::1"\n[mta.pools.default]\nsources = ["ip1", "ip2"]\n`).config();
    expect(c.mta.egress).toEqual({ ip1: { source_address: "203.0.113.10", ehlo: "mta1.example.com", warmup_start: "2026-11-26" },
      ip2: { source_address: "2001:db8::1", ehlo: "", warmup_start: "" } });
    expect(c.mta.pools).toEqual({ default: { sources: ["ip1", "ip2"] } });
  });

  test("defaults: no sources, no pools (the default pool is the machine's address)", () => {
    const c = loadConfig({ file: null, env: {} });
    expect([c.mta.egress, c.mta.pools]).toEqual([{}, {}]);
  });

  test("an address belongs to at most one pool: refused with the file, the key and why", () => {
    const { file } = load("");
    const p = problems(`[mta.egress.ip1]\nsource_address = "127.0.0.2"\n[mta.pools.a]\nsources = ["ip1"]\n[mta.pools.b]\nsources = ["ip1"]\n`);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/postern\.toml: mta\.pools\.b\.sources: "ip1" is already in pool "a"/);
    expect(file).toMatch(/postern\.toml$/);
    expect(problems(`[mta.egress.a]\nsource_address = "127.0.0.2"\n[mta.egress.b]\nsource_address = "127.0.0.2"\n`)[0]).toMatch(/mta\.egress\.b\.source_address: 127\.0\.0\.2 is already source "a"/);
  });

  test("bad values are named", () => {
    const p = problems(`[mta.egress.x]\nsource_address = "mail.example.com"\nwarmup_start = "tomorrow"\ncolour = "red"\n[mta.pools.p]\nsources = ["nope"]\n[mta.pools.q]\nsources = []\n`);
    expect(p.map((s) => s.replace(/^.*?postern\.toml: /, ""))).toEqual([
      "mta.egress.x.colour: unknown key",
      'mta.egress.x.source_address: expected an IPv4 or IPv6 address, got "mail.example.com"',
      'mta.egress.x.warmup_start: expected a date such as "2026-11-26" or "", got "tomorrow"',
      "mta.pools.q.sources: expected a non-empty array of [mta.egress] names",
      'mta.pools.p.sources: "nope" is not an [mta.egress.nope] source',
    ]);
  });
});
