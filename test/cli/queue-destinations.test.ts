// `postern queue destinations` through the real CLI while `postern serve` runs (it reads what the
// server's scheduler published and the queue): each destination's waiting count, concurrency and
// limit, in the contract's JSON shape; and after the server stopped, the waiting mail still shows.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSink } from "../helpers/smtp-sink.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-destinations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  const r = Bun.spawnSync(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args]);
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

test("queue destinations shows each destination while the server runs and after", async () => {
  const sink = await startSink({ script: () => ({ code: 451, message: "4.3.0 try again later" }) });
  const port = (() => { const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); const p = s.port; s.stop(true); return p; })();
  writeFileSync(join(dir, "postern.toml"), `[server]\nlisten = "127.0.0.1:${port}"\nnode_id = "us-1"\n[smtp]\nlisten = "127.0.0.1:0"\n` +
    `[storage]\ndata_dir = "${join(dir, "data")}"\n[mta]\nhostname = "mta.test"\nretry = ["1h"]\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  expect(cli("domain", "add", "dest.example").code).toBe(0);
  expect(cli("domain", "verify", "dest.example", "--force").code).toBe(0);
  expect(cli("send", "--from", "a@dest.example", "--to", "x@gmail.com", "y@gmail.com", "z@small.test", "--subject", "s", "--text", "t").code).toBe(0);
  const server = Bun.spawn(["bun", MAIN, "--config", join(dir, "postern.toml"), "serve"], { stdout: "pipe", stderr: "pipe" });
  try {
    let rows: any[] = [];
    for (let i = 0; i < 200; i++) {
      const r = cli("queue", "destinations", "--json");
      rows = r.code === 0 ? JSON.parse(r.out).destinations : [];
      const g = rows.find((d) => d.name === "gmail");
      if (g?.concurrency > 0 && g.in_flight === 0 && sink.messages.length + sink.connections > 0) break;
      await Bun.sleep(150);
    }
    const gmail = rows.find((d) => d.name === "gmail");
    expect(gmail).toEqual({ name: "gmail", provider: "gmail", waiting: 2, in_flight: 0, concurrency: expect.any(Number), max_concurrency: 20,
      suspended_until: null, last_throttle: null, mx: [] }); // a static route: no MX, no TLS policy of its own
    expect(gmail.concurrency).toBeGreaterThanOrEqual(5);
    expect(rows.find((d) => d.name === `127.0.0.1:${sink.port}`)).toMatchObject({ provider: null, waiting: 1, max_concurrency: 20 });
    expect(cli("queue", "destinations").out).toMatch(/gmail\s+gmail\s+2\s+0\s+\d+\s+20/);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    await sink.close();
  }
  const after = JSON.parse(cli("queue", "destinations", "--json").out).destinations;
  expect(after.find((d: any) => d.name === "gmail")).toMatchObject({ waiting: 2, in_flight: 0 });
}, 60_000);
