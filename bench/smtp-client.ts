// postern's SMTP client (src/mta/delivery/smtp-client.ts, hand-written since #29; it was
// nodemailer's SMTPConnection when this bench was written and led to the change) against a lean client
// prototype (below: EHLO, PIPELINING of MAIL/RCPT/DATA, multiline replies, dot-stuffing; no TLS,
// no AUTH, no error recovery: a measuring stick, not a client to deliver with), sending the same
// signed-size message to the counting sink (its own process): over one reused connection, and
// over 20 connections at once as the MTA does. Prints delivered msg/s and the client's CPU ms per
// message. Run: bun bench/smtp-client.ts [N]
import { readFileSync } from "node:fs";
import { SmtpClient } from "../src/mta/delivery/smtp-client.ts";
import { prepareMessage } from "../src/mta/message/compose.ts";
import { createTokenCodec } from "../src/tracking/token.ts";
import { benchMessage } from "./mta-steps.ts";
import { startSinkProcess, type Sink } from "./sink-process.ts";

const N = Number(process.argv[2] ?? 5_000);
const CONNECTIONS = 20;

/** A minimal SMTP client over Bun.connect: replies are matched to commands in order. */
class LeanClient {
  private buf = "";
  private waiting: ((reply: { code: number; text: string }) => void)[] = [];
  private lines: string[] = [];
  private pipelining = false;
  private constructor(private socket: Bun.Socket<undefined>) {}

  static async open(port: number): Promise<LeanClient> {
    let client!: LeanClient;
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: {
      data: (_s, chunk) => client.onData(chunk),
      close: () => client?.fail(),
      error: () => client?.fail(),
    } });
    client = new LeanClient(socket);
    await client.reply(); // 220 greeting
    socket.write("EHLO lean.bench.test\r\n");
    const ehlo = await client.reply();
    client.pipelining = /^PIPELINING$/im.test(ehlo.text.replace(/^\d{3}[ -]/gm, ""));
    return client;
  }

  private fail() { for (const w of this.waiting.splice(0)) w({ code: 421, text: "connection closed" }); }

  private onData(chunk: Buffer) {
    this.buf += chunk.toString("latin1");
    for (let i = this.buf.indexOf("\r\n"); i >= 0; i = this.buf.indexOf("\r\n")) {
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 2);
      this.lines.push(line);
      // RFC 5321 §4.2.1: "250-" continues a reply, "250 " ends it.
      if (line[3] !== "-") {
        const text = this.lines.join("\n");
        this.lines = [];
        this.waiting.shift()?.({ code: Number(line.slice(0, 3)), text });
      }
    }
  }

  private reply() { return new Promise<{ code: number; text: string }>((resolve) => this.waiting.push(resolve)); }

  /** One transaction; resolves with the final reply (or the first refusal). */
  async send(from: string, to: string, message: Buffer): Promise<number> {
    const commands = [`MAIL FROM:<${from}>\r\n`, `RCPT TO:<${to}>\r\n`, "DATA\r\n"];
    const replies: Promise<{ code: number }>[] = [];
    if (this.pipelining) { for (const _ of commands) replies.push(this.reply()); this.socket.write(commands.join("")); } else {
      for (const c of commands) { const r = this.reply(); this.socket.write(c); replies.push(r); if ((await r).code >= 400) break; }
    }
    const codes = (await Promise.all(replies)).map((r) => r.code);
    if (codes[0] !== 250 || codes[1] !== 250 || codes[2] !== 354) return codes.find((c) => c >= 400) ?? 554;
    const end = this.reply();
    this.socket.write(dotStuff(message));
    this.socket.write(message[message.length - 1] === 10 ? ".\r\n" : "\r\n.\r\n");
    return (await end).code;
  }

  close() { this.socket.write("QUIT\r\n"); this.socket.end(); }
}

/** RFC 5321 §4.5.2: a line starting with "." gets one more. */
function dotStuff(message: Buffer): Buffer {
  const text = message.toString("latin1");
  if (!text.startsWith(".") && !text.includes("\n.")) return message;
  return Buffer.from(text.replace(/(^|\n)\./g, "$1.."), "latin1");
}

interface Client { send(i: number): Promise<void>; close(): void }

async function posternClient(port: number, message: Buffer): Promise<Client> {
  const c = await SmtpClient.open({ host: "127.0.0.1", port, isStaticRoute: true }, { hostname: "nm.bench.test", tls: "none" });
  return { async send(i) { await c.send("bounce@bench.example", [`r${i}@dest.test`], message); }, close: () => c.close() };
}

async function leanClient(port: number, message: Buffer): Promise<Client> {
  const c = await LeanClient.open(port);
  return { async send(i) { const code = await c.send("bounce@bench.example", `r${i}@dest.test`, message); if (code !== 250) throw new Error(`reply ${code}`); }, close: () => c.close() };
}

async function run(name: string, open: (port: number, message: Buffer) => Promise<Client>, connections: number, message: Buffer) {
  const sink: Sink = await startSinkProcess();
  const clients = await Promise.all(Array.from({ length: connections }, () => open(sink.port, message)));
  for (const c of clients) await c.send(0); // warm-up
  const warm = sink.received();
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(clients.map(async (c) => { while (next < N) await c.send(next++); }));
  while (sink.received() < warm + N) await Bun.sleep(5);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const c of clients) c.close();
  sink.stop();
  console.log(`${name.padEnd(34)} ${String(connections).padStart(2)} connection${connections > 1 ? "s" : " "}  ${String(Math.round(N / seconds)).padStart(6)} msg/s  ` +
    `${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms CPU/msg (client)`);
}

const html = `<html><body>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(40)}</body></html>`;
const message = await prepareMessage(benchMessage(0, html), [], { publicUrl: "http://127.0.0.1:8025", codec: createTokenCodec("bench"), hostname: "mta.bench.test" }).build("");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`${N} messages of ${message.length} bytes to the bench sink; load average ${load()}`);
for (const connections of [1, CONNECTIONS]) {
  // Alternated and repeated: on a shared machine one run alone says little.
  for (let round = 0; round < 2; round++) {
    await run("postern SmtpClient", posternClient, connections, message);
    await run("lean client prototype", leanClient, connections, message);
  }
}
console.log(`load average ${load()}`);
process.exit(0);
