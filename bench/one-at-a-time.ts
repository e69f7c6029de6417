// A sender that sends one message at a time and waits for each answer (a script's `for ... await
// send()`), over SendGrid's API or SMTP with one connection, delivered to a local sink: the shape
// the shared commits must not slow down (src/store/sqlite/group-commit.ts). Prints the rate and
// the answer's latency percentiles.
//
//   bun bench/one-at-a-time.ts [http|smtp] [COUNT=2000]
//   BENCH_BINARY=./postern bun bench/one-at-a-time.ts
//
// It prints figures; on a loaded machine they are not measurements (docs/performance.md).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { prepareDomainKey } from "../test/helpers/app.ts";
import { startSinkProcess } from "./sink-process.ts";
import { pct, startServer } from "./serve.ts";

const mode = process.argv[2] ?? "http";
const COUNT = Number(process.argv[3] ?? 2000);
const text = "Hello, this is one message of a script's loop. ".repeat(20);

const sink = await startSinkProcess();
const dir = mkdtempSync(join(tmpdir(), "postern-one-"));
const smtpPort = 20000 + Math.floor(Math.random() * 20000);
const file = join(dir, "postern.toml");
writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:${smtpPort}"\n[mta]\nhostname = "mta.test"\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
let smtpUser = { login: "", password: "" };
const key = await prepareDomainKey(file, "one.example", async (app) => { smtpUser = await app.access.setCredential("one.example", "loop"); });
const server = await startServer(file, !!process.env.BENCH_SOURCE);

const send = mode === "smtp"
  ? (() => {
    const t = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true, pool: true, maxConnections: 1, maxMessages: Infinity,
      auth: { user: smtpUser.login, pass: smtpUser.password } });
    return async (i: number) => { await t.sendMail({ from: "loop@one.example", to: `user${i}@dest${i % 50}.test`, subject: `Loop ${i}`, text }); };
  })()
  : async (i: number) => {
    const res = await fetch(`${server.base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: `user${i}@dest${i % 50}.test` }] }], from: { email: "loop@one.example" },
        subject: `Loop ${i}`, content: [{ type: "text/plain", value: text }] }) });
    if (res.status !== 202) throw new Error(`send ${i}: ${res.status} ${await res.text()}`);
  };

const latencies: number[] = [];
const t0 = performance.now();
for (let i = 0; i < COUNT; i++) {
  const t = performance.now();
  await send(i);
  latencies.push(performance.now() - t);
}
const seconds = (performance.now() - t0) / 1000;
console.log(`${mode}, one at a time: ${COUNT} sent in ${seconds.toFixed(1)} s, ${(COUNT / seconds).toFixed(0)} msg/s; ` +
  `answer p50 ${pct(latencies, 0.5).toFixed(1)} ms, p95 ${pct(latencies, 0.95).toFixed(1)} ms, p99 ${pct(latencies, 0.99).toFixed(1)} ms`);
await server.stop();
sink.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
