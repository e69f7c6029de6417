// Delivered msg/s end to end with one storage engine and one or two nodes, in one run:
//   SQLite alone (the single-box default), one node on PostgreSQL, two nodes on one PostgreSQL.
// Each run: N single-recipient messages POSTed to SendGrid's /v3/mail/send (32 at once, spread
// round-robin over the nodes' listeners), queued, DKIM-signed and relayed over SMTP to a counting
// sink in its own process; the clock stops when the sink has them all. PostgreSQL is a throw-away
// cluster (test/helpers/postgres.ts; durability settings off, as in the tests) on this machine;
// with POSTERN_TEST_PG_DURABLE=1 it runs with PostgreSQL's defaults (fsync, synchronous_commit on).
// Run: bun bench/nodes.ts [N]   (default 3000)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.ts";
import { createApp } from "../src/app.ts";
import { createLogger } from "../src/log.ts";
import { pgSkipReason, startPostgres } from "../test/helpers/postgres.ts";
import { freePort } from "../test/helpers/free-port.ts";
import { startSinkProcess } from "./sink-process.ts";

const N = Number(process.argv[2] ?? 3000);
const CONCURRENT_REQUESTS = 32;
const MAIN = new URL("../cli/main.ts", import.meta.url).pathname;
const text = "Hello, this is a benchmark message. ".repeat(20);
const html = `<html><body>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(40)}</body></html>`;



async function writeNodeConfig(dir: string, nodeId: string, storage: string, sinkPort: number): Promise<{ file: string; base: string }> {
  const port = await freePort();
  const file = join(dir, `${nodeId}.toml`);
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:${port}"\nnode_id = "${nodeId}"\n[storage]\n${storage}data_dir = "${join(dir, "data")}"\n` +
    `[smtp]\nlisten = "127.0.0.1:0"\n[mta]\nhostname = "mta.test"\nmax_connections_per_host = 20\nmessages_per_connection = 100000\n` +
    `[mta.routes]\n"*" = "127.0.0.1:${sinkPort}"\n`);
  return { file, base: `http://127.0.0.1:${port}` };
}

async function waitUp(base: string) {
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
    await Bun.sleep(100);
  }
  throw new Error(`${base} did not come up`);
}

async function run(name: string, nodes: number, storage: string): Promise<{ name: string; seconds: number }> {
  const sink = await startSinkProcess();
  const dir = mkdtempSync(join(tmpdir(), "postern-bench-nodes-"));
  const configs = await Promise.all(Array.from({ length: nodes }, (_, i) => writeNodeConfig(dir, `node-${i + 1}`, storage, sink.port)));
  const setup = await createApp(loadConfig({ file: configs[0]!.file, env: {} }), { log: createLogger({ level: "warn" }) });
  await setup.domains.add("bench.example");
  await setup.domains.verify("bench.example", true);
  const key = (await setup.access.createKey({ kind: "domain", domain: "bench.example" })).key;
  await setup.stop();
  const servers = configs.map((c) => Bun.spawn(["bun", MAIN, "--config", c.file, "serve"], { stdout: "ignore", stderr: "inherit" }));
  try {
    for (const c of configs) await waitUp(c.base);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, async () => {
      while (next < N) {
        const i = next++;
        const res = await fetch(`${configs[i % nodes]!.base}/v3/mail/send`, { method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ personalizations: [{ to: [{ email: `user${i}@dest${i % 50}.test` }] }], from: { email: "news@bench.example" },
            subject: `Message ${i}`, content: [{ type: "text/plain", value: text }, { type: "text/html", value: html }] }) });
        if (res.status !== 202) throw new Error(`send ${i}: ${res.status} ${await res.text()}`);
      }
    }));
    while (sink.received() < N) await Bun.sleep(10);
    return { name, seconds: (performance.now() - t0) / 1000 };
  } finally {
    for (const s of servers) s.kill("SIGTERM");
    await Promise.all(servers.map((s) => s.exited));
    sink.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [await run("SQLite, one node", 1, "")];
if (pgSkipReason) {
  console.log(pgSkipReason);
} else {
  const pg = await startPostgres();
  try {
    for (const nodes of [1, 2]) {
      const url = await pg.createDatabase(`bench${nodes}`);
      results.push(await run(`PostgreSQL, ${nodes} node${nodes > 1 ? "s" : ""}`, nodes, `engine = "postgres"\npostgres_url = "${url}"\n`));
    }
  } finally {
    await pg.stop();
  }
}
const durability = process.env.POSTERN_TEST_PG_DURABLE === "1" ? "PostgreSQL durable (fsync on)" : "PostgreSQL durability off";
console.log(`\n${N} messages, delivered end to end (accept over HTTP → DKIM → SMTP sink), ${process.env.CPUS ?? navigator.hardwareConcurrency} cores, ${durability}`);
for (const r of results) console.log(`${r.name.padEnd(22)} ${(N / r.seconds).toFixed(0).padStart(6)} msg/s  (${r.seconds.toFixed(1)} s)`);
