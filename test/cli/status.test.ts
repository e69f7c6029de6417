// `postern status` through the real CLI: the server's health and the nodes of its zone from the
// registry (state, heartbeat, claims held), also when the server no longer answers.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-status-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

const cli = (...args: string[]) => {
  const r = Bun.spawnSync(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args]);
  return { code: r.exitCode, out: r.stdout.toString() };
};

test("status lists this node serving, then stopped once it stopped", async () => {
  const port = await freePort();
  writeFileSync(join(dir, "postern.toml"), `[server]\nlisten = "127.0.0.1:${port}"\nnode_id = "us-1"\n[smtp]\nlisten = "127.0.0.1:0"\n` +
    `[storage]\ndata_dir = "${join(dir, "data")}"\n`);
  const server = Bun.spawn(["bun", MAIN, "--config", join(dir, "postern.toml"), "serve"], { stdout: "pipe", stderr: "pipe" });
  try {
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break;
      await Bun.sleep(100);
    }
    const up = cli("status", "--json");
    expect(up.code).toBe(0);
    const body = JSON.parse(up.out);
    expect(body).toMatchObject({ status: "ok", node: "us-1" });
    expect(body.nodes).toEqual([expect.objectContaining({ node_id: "us-1", zone: "us", state: "serving", self: true, claims: { recipients: 0, webhooks: 0 } })]);
    expect(cli("status").out).toMatch(/us-1 \(this\)\s+us\s+serving/);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
  const down = cli("status", "--json");
  expect(down.code).toBe(1);
  expect(JSON.parse(down.out)).toMatchObject({ status: "unreachable", nodes: [expect.objectContaining({ node_id: "us-1", state: "stopped" })] });
}, 30_000);
