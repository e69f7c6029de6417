// `postern tls-rpt send` through the real CLI: refused while [mta] tls_reports is off; with it on
// and no session counted today, nothing to send. (The reports themselves: test/mta/delivery/dane-delivery.test.ts.)
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-tlsrpt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (reports: boolean, ...args: string[]) => {
  writeFileSync(join(dir, "postern.toml"), `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = "${join(dir, "data")}"\n`
    + `[mta]\nhostname = "mta.test"\ndane = "off"\ntls_reports = ${reports}\n`);
  const r = Bun.spawnSync(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args]);
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

test("tls-rpt send: refused while off; with nothing counted today, nothing is sent", () => {
  const off = cli(false, "tls-rpt", "send");
  expect(off.code).not.toBe(0);
  expect(off.err).toContain("tls_reports = true");
  const on = cli(true, "tls-rpt", "send", "--json");
  expect(on.code).toBe(0);
  expect(JSON.parse(on.out)).toEqual({ reports: [] });
  expect(cli(true, "tls-rpt", "--help").out).toContain("send");
}, 30_000);
