// Inbound SMTP bounded per client: connections open at once and new ones a minute per IP, and an
// unauthenticated message (to postmaster@, abuse@ or a return path) kept only up to its cap
// while the rest streams past.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let port = 0;
beforeAll(async () => {
  t = await makeTestApp({ smtpToml: "max_connections_per_ip = 3\nconnections_per_minute_per_ip = 8\nmax_report_size = 65536" });
  port = Number((await t.app.start()).smtp!.split(":").pop());
});
afterAll(async () => { await t.close(); });

/** Opens a connection and returns it with its first reply. */
async function open(): Promise<{ socket: Socket; reply: () => Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  let buffer = "";
  let wake: (() => void) | null = null;
  socket.on("data", (d) => { buffer += d.toString(); wake?.(); });
  socket.on("error", () => undefined);
  const reply = async () => {
    for (let i = 0; i < 300; i++) {
      const m = /^(\d{3}) .*\r\n/m.exec(buffer);
      if (m) { buffer = buffer.slice(m.index + m[0].length); return m[0].trim(); }
      await new Promise<void>((r) => { wake = r; setTimeout(r, 100); });
    }
    return "timeout";
  };
  return { socket, reply };
}

test("a fourth connection at once from one IP gets 421; closing one lets the next in", async () => {
  const first = await Promise.all([open(), open(), open()]);
  for (const c of first) expect(await c.reply()).toStartWith("220");
  const fourth = await open();
  expect(await fourth.reply()).toStartWith("421");
  first[0]!.socket.destroy();
  await Bun.sleep(200);
  const fifth = await open();
  expect(await fifth.reply()).toStartWith("220");
  for (const c of [...first, fourth, fifth]) c.socket.destroy();
  await Bun.sleep(200);
});

test("a 5 MB unauthenticated message is read to its end and answered, keeping only 64 KB", async () => {
  const c = await open();
  expect(await c.reply()).toStartWith("220");
  for (const line of ["EHLO client.test", "MAIL FROM:<>", "RCPT TO:<postmaster@example.com>", "DATA"]) {
    c.socket.write(`${line}\r\n`);
    expect(await c.reply()).toMatch(/^(250|354)/);
  }
  const line = `${"x".repeat(998)}\r\n`;
  c.socket.write(`From: someone@dest.test\r\nTo: postmaster@example.com\r\nSubject: big\r\n\r\n${line.repeat(5000)}.\r\n`);
  expect(await c.reply()).toMatch(/^(250|550)/);
  c.socket.destroy();
});

test("new connections above the per-minute rate get 421", async () => {
  const replies: string[] = [];
  for (let i = 0; i < 8; i++) {
    const c = await open();
    replies.push(await c.reply());
    c.socket.destroy();
  }
  expect(replies.some((r) => r.startsWith("421"))).toBe(true);
});
