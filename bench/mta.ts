// Pushes N single-recipient messages through the core send service into a local smtp-server
// sink and prints accepted/s, delivered/s end to end, and peak RSS. Run: bun bench/mta.ts [N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { loadConfig } from "../src/config/load.ts";
import { createApp } from "../src/app.ts";
import { createLogger } from "../src/log.ts";
import { writeConfig } from "../test/helpers/app.ts";

const N = Number(process.argv[2] ?? 20_000);
const CONCURRENT_SENDS = 64;

let received = 0;
const sink = new SMTPServer({ authOptional: true, disabledCommands: ["AUTH", "STARTTLS"], logger: false,
  onData(stream, _s, cb) { stream.on("data", () => {}); stream.on("end", () => { received++; cb(); }); } });
await new Promise<void>((r) => sink.listen(0, "127.0.0.1", () => r()));
const port = (sink.server.address() as { port: number }).port;

const dir = mkdtempSync(join(tmpdir(), "postern-bench-"));
const file = writeConfig(dir, `[mta]\nmax_connections_per_host = 20\nmessages_per_connection = 1000\n[mta.routes]\n"*" = "127.0.0.1:${port}"\n`.replace("[mta]\n", ""));
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
console.log(`delivered/s         ${(N / totalSec).toFixed(0)}   (end to end, ${totalSec.toFixed(2)} s, DKIM RSA-2048 + Ed25519)`);
console.log(`peak RSS            ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
await app.stop();
sink.close();
rmSync(dir, { recursive: true, force: true });
