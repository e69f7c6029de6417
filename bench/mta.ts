// Pushes N single-recipient messages through the core send service into a local smtp-server
// sink and prints accepted/s, delivered/s end to end, and peak RSS. Run: bun bench/mta.ts [N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.ts";
import { createApp } from "../src/app.ts";
import { createLogger } from "../src/log.ts";
import { writeConfig } from "../test/helpers/app.ts";

const N = Number(process.argv[2] ?? 20_000);
const CONCURRENT_SENDS = 64;

const WORKERS = Number(process.env.SIGNING_WORKERS ?? 2);

// The sink runs in its own process, as a receiving MTA would.
const sink = Bun.spawn(["bun", new URL("./sink.ts", import.meta.url).pathname], { stdout: "pipe" });
let received = 0;
const port = await new Promise<number>((resolve) => {
  void (async () => {
    let buf = "";
    for await (const chunk of sink.stdout as ReadableStream<Uint8Array>) {
      buf += new TextDecoder().decode(chunk);
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith("port ")) resolve(Number(line.slice(5)));
        if (line.startsWith("received ")) received = Number(line.slice(9));
      }
    }
  })();
});

const dir = mkdtempSync(join(tmpdir(), "postern-bench-"));
const file = writeConfig(dir, `max_connections_per_host = 20\nmessages_per_connection = 1000\nsigning_workers = ${WORKERS}\n[mta.routes]\n"*" = "127.0.0.1:${port}"\n`);
const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "warn" }) });
await app.domains.add("bench.example");
await app.domains.verify("bench.example", true);
const principal = { accountId: 1, keyId: "bench", kind: "account" as const, domain: null, grants: [] };

let peakRss = 0;
const rssTimer = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 50);
const html = `<html><body><p>Hello {{name}}, this is a benchmark message.</p>${"<p>Lorem ipsum dolor sit amet.</p>".repeat(20)}</body></html>`;

const t0 = performance.now();
await app.mta.scheduler.start();
let next = 0;
async function sender() {
  while (next < N) {
    const i = next++;
    await app.sender.send(principal, { domain: "bench.example", source: "cli", from: { email: "news@bench.example", name: "Bench" },
      envelopes: [{ to: [{ email: `user${i}@dest${i % 50}.test` }], subject: `Message ${i}`, text: `Hello user ${i}`, html }] });
  }
}
await Promise.all(Array.from({ length: CONCURRENT_SENDS }, sender));
const accepted = performance.now();
while (received < N) await Bun.sleep(20);
const delivered = performance.now();
await app.mta.scheduler.drain();
clearInterval(rssTimer);

const acceptSec = (accepted - t0) / 1000;
const totalSec = (delivered - t0) / 1000;
console.log(`messages            ${N}`);
console.log(`accepted/s          ${(N / acceptSec).toFixed(0)}   (${acceptSec.toFixed(2)} s, while delivering)`);
console.log(`delivered/s         ${(N / totalSec).toFixed(0)}   (end to end, ${totalSec.toFixed(2)} s, DKIM RSA-2048 + Ed25519, ${WORKERS} signing workers)`);
console.log(`peak RSS            ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
await app.stop();
sink.kill();
rmSync(dir, { recursive: true, force: true });
