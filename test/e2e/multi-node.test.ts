// Two nodes of zone us on one PostgreSQL database (control data shared): two real `postern serve`
// processes deliver one batch to the local SMTP sink. One is killed with kill -9 mid-batch; the
// other finishes the batch, taking over the dead node's claims once their (short) lease ends; the
// killed node restarts. Nothing accepted is lost, and only what was in flight at the kill is
// delivered twice: at most one message per open connection of the killed node (10 per host) plus
// the outcomes it had not yet committed. The #21 aim of 0.1 % is not reached yet on PostgreSQL
// (16 of 1,500 seen, 1.1 %): the bound below says what holds today, the log line prints the rate.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { startSink } from "../helpers/smtp-sink.ts";
import { pgSkipReason, startPostgres, type PgCluster } from "../helpers/postgres.ts";

const MESSAGES = 1500;
const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-nodes-"));
const pg: PgCluster | null = pgSkipReason ? null : await startPostgres();
afterAll(async () => { await pg?.stop(); rmSync(dir, { recursive: true, force: true }); }, 30_000);

function nodeConfig(nodeId: string, url: string, sinkPort: number): string {
  const file = join(dir, `${nodeId}.toml`);
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\nzone = "us"\nnode_id = "${nodeId}"\nclaim_lease = "2s"\n` +
    `[storage]\nengine = "postgres"\npostgres_url = "${url}"\ndata_dir = "${join(dir, nodeId)}"\n` +
    `[smtp]\nlisten = "127.0.0.1:0"\n[mta]\nhostname = "mta.test"\nretry = ["1s"]\n[mta.routes]\n"*" = "127.0.0.1:${sinkPort}"\n`);
  return file;
}

const serve = (file: string) => Bun.spawn(["bun", MAIN, "--config", file, "serve"], { stdout: "ignore", stderr: "ignore" });

describe.skipIf(pg === null)("two nodes on one PostgreSQL database", () => {
  test("kill -9 of one node mid-batch: the other finishes it, the killed one restarts, nothing lost, only in-flight mail delivered twice", async () => {
    const sink = await startSink();
    const url = await pg!.createDatabase("nodes");
    const files = ["us-1", "us-2"].map((id) => nodeConfig(id, url, sink.port));
    // Accept the batch before either node serves, so both find it waiting.
    const seed = await createApp(loadConfig({ file: nodeConfig("seed", url, sink.port), env: {} }), { log: createLogger({ level: "silent" }) });
    await seed.domains.add("example.com");
    await seed.domains.verify("example.com", true);
    const principal = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
    for (let i = 0; i < MESSAGES; i++) {
      await seed.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
        envelopes: [{ to: [{ email: `r${i}@dest.test` }], subject: `m${i}`, text: "x" }] });
    }
    const distinct = () => new Set(sink.messages.flatMap((m) => m.to)).size;
    const waitFor = async (n: number, ms: number) => {
      const deadline = Date.now() + ms;
      while (distinct() < n && Date.now() < deadline) await Bun.sleep(50);
    };

    let one = serve(files[0]!);
    const two = serve(files[1]!);
    try {
      await waitFor(MESSAGES / 3, 60_000);
      one.kill(9);
      await one.exited;
      const atKill = distinct();
      expect(atKill).toBeLessThan(MESSAGES);
      // us-2 alone finishes the batch, us-1's claims included once their lease ended.
      await waitFor(MESSAGES, 90_000);
      expect(distinct()).toBe(MESSAGES);
      const nodes = await seed.nodes.list("us");
      expect(nodes.find((n) => n.nodeId === "us-2")?.state).toBe("serving");
      expect(nodes.find((n) => n.nodeId === "us-1")?.claims.recipients ?? 0).toBe(0);
      one = serve(files[0]!);
      for (let i = 0; i < 100 && (await seed.nodes.list("us")).find((n) => n.nodeId === "us-1")?.pid !== one.pid; i++) await Bun.sleep(100);
      expect((await seed.nodes.list("us")).find((n) => n.nodeId === "us-1")).toMatchObject({ state: "serving", pid: one.pid });
      const stats = await seed.store.zone("us").queueStats(Date.now());
      expect([stats.queued, stats.deferred, stats.delivered]).toEqual([0, 0, MESSAGES]);
    } finally {
      for (const p of [one, two]) p.kill("SIGTERM");
      await Promise.all([one.exited, two.exited]);
      await seed.stop();
      await sink.close();
    }
    const duplicates = sink.messages.length - MESSAGES;
    console.log(`multi-node: ${MESSAGES} recipients, ${duplicates} delivered twice`);
    expect(duplicates).toBeLessThanOrEqual(30);
  }, 240_000);
});
