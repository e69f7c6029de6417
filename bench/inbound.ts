// Inbound streaming benchmark: several large messages received at once over SMTP by a domain with
// inbound on, and the server's resident memory while they stream in, against the bytes received.
// The senders are separate processes (their buffers are not counted). No route is configured, so
// nothing is posted: the figure is the receiving side alone.
// Run: `bun bench/inbound.ts [connections] [MB each]`. Everything on 127.0.0.1.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../test/helpers/app.ts";

const CONNECTIONS = Number(process.argv[2] ?? 4);
const MB = Number(process.argv[3] ?? 30);

const SENDER = `
import { connect } from "node:net";
import { once } from "node:events";
const [port, mb, id] = process.argv.slice(2).map(Number);
const socket = connect(port, "127.0.0.1");
let buffer = "";
socket.on("data", (d) => { buffer += d.toString(); });
const reply = async () => { for (;;) { const m = /^\\d{3} .*\\r\\n/m.exec(buffer); if (m) { buffer = buffer.slice(m.index + m[0].length); return m[0].trim(); } await Bun.sleep(5); } };
await reply();
for (const cmd of ["EHLO bench.test", "MAIL FROM:<a@sender.example>", "RCPT TO:<desk@in.example.com>", "DATA"]) { socket.write(cmd + "\\r\\n"); await reply(); }
socket.write("From: a@sender.example\\r\\nTo: desk@in.example.com\\r\\nSubject: big " + id + "\\r\\n\\r\\n");
const block = Buffer.from(("z".repeat(998) + "\\r\\n").repeat(64));
for (let sent = 0; sent < mb * 1024 * 1024; sent += block.length) if (!socket.write(block)) await once(socket, "drain");
socket.write(".\\r\\n");
console.log(await reply());
socket.end();
`;

const t = await makeTestApp({ domain: "in.example.com", smtpToml: `max_message_size = ${(MB + 2) * 1024 * 1024}` });
await t.app.domains.set("in.example.com", { inbound: true });
const port = Number((await t.app.start()).smtp!.split(":").pop());
Bun.gc(true);
const base = process.memoryUsage().rss;
let peak = base;
let livePeak = base;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
// What is really held, without garbage the collector has not got to yet: RSS right after a full GC.
const liveSampler = setInterval(() => { Bun.gc(true); livePeak = Math.max(livePeak, process.memoryUsage().rss); }, 250);
const start = performance.now();
const script = join(mkdtempSync(join(tmpdir(), "postern-bench-")), "sender.ts");
writeFileSync(script, SENDER);
const senders = Array.from({ length: CONNECTIONS }, (_, i) =>
  Bun.spawn(["bun", script, String(port), String(MB), String(i)], { stdout: "pipe", stderr: "inherit" }));
const answers = await Promise.all(senders.map(async (p) => (await new Response(p.stdout as ReadableStream).text()).trim()));
const seconds = (performance.now() - start) / 1000;
clearInterval(sampler);
clearInterval(liveSampler);
await t.close();
const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
console.log(`answers: ${answers.join(" | ")}`);
console.log(`${CONNECTIONS} connections × ${MB} MiB received in ${seconds.toFixed(1)} s (${((CONNECTIONS * MB) / seconds).toFixed(0)} MiB/s)`);
console.log(`server RSS: ${mib(base)} MiB before; peak +${mib(peak - base)} MiB, peak right after a full GC +${mib(livePeak - base)} MiB, for ${CONNECTIONS * MB} MiB in flight`);
