// Mail for a receiving domain streams into the store while the client sends: pieces are in the
// zone's file before DATA ends, the 250 comes only once the message is committed, and a message
// over the size limit (552) or with a smuggling sequence (554) leaves no piece behind.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { PIECE_BYTES } from "../../../src/inbound/receive/body-writer.ts";

const MAX = 3_000_000;
let t: TestApp;
let port = 0;
let zoneDb: Database;
const posts: Record<string, string>[] = [];
let target: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) {
    const form = await req.formData();
    posts.push(Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string")));
    return new Response("ok");
  } });
  t = await makeTestApp({ domain: "in.example.com", smtpToml: `max_message_size = ${MAX}`, toml: "[webhooks]\nallow_private = true\n" });
  await t.app.domains.set("in.example.com", { inbound: true });
  const addrs = await t.app.start();
  port = Number(addrs.smtp!.split(":").pop());
  const key = t.accountKey;
  const form = new FormData();
  form.append("priority", "1"); form.append("expression", `match_recipient("^desk@in\\.example\\.com$")`);
  form.append("action", `forward("http://127.0.0.1:${target.port}/mg")`);
  const res = await fetch(`http://${addrs.http}/v3/routes`, { method: "POST", body: form, headers: { authorization: `Basic ${btoa(`api:${key}`)}` } });
  expect(res.status).toBe(200);
  zoneDb = new Database(join(t.dir, "postern-data", "us.sqlite"), { readonly: true });
});
afterAll(async () => { zoneDb.close(); await t.close(); target.stop(true); });

const pieces = () => (zoneDb.query("SELECT COUNT(*) AS n FROM inbound_bodies").get() as { n: number }).n;
const orphans = () => (zoneDb.query("SELECT COUNT(*) AS n FROM inbound_bodies WHERE body_id NOT IN (SELECT body_id FROM inbound_messages WHERE body_id IS NOT NULL)").get() as { n: number }).n;

async function session(): Promise<{ socket: Socket; reply: () => Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  let buffer = "";
  socket.on("data", (d) => { buffer += d.toString(); });
  socket.on("error", () => undefined);
  const reply = async () => {
    for (let i = 0; i < 600; i++) {
      const m = /^(\d{3}) .*\r\n/m.exec(buffer);
      if (m) { buffer = buffer.slice(m.index + m[0].length); return m[0].trim(); }
      await Bun.sleep(50);
    }
    return "timeout";
  };
  expect(await reply()).toStartWith("220");
  for (const line of ["EHLO client.test", "MAIL FROM:<zoe@sender.example>", "RCPT TO:<desk@in.example.com>", "DATA"]) {
    socket.write(`${line}\r\n`);
    expect(await reply()).toMatch(/^(250|354)/);
  }
  return { socket, reply };
}

const head = (subject: string) => `From: zoe@sender.example\r\nTo: desk@in.example.com\r\nSubject: ${subject}\r\n\r\n`;
const line = `${"y".repeat(98)}\r\n`;

test("pieces are stored while DATA is still coming; the 250 follows the commit and the post has it all", async () => {
  const before = pieces();
  const c = await session();
  const lines = Math.ceil((3 * PIECE_BYTES) / line.length);
  c.socket.write(head("streamed") + line.repeat(lines));
  const end = Date.now() + 20_000;
  while (pieces() - before < 2 && Date.now() < end) await Bun.sleep(50);
  expect(pieces() - before).toBeGreaterThanOrEqual(2); // in the store, and DATA has not ended
  c.socket.write(`${line.repeat(lines)}.\r\n`);
  expect(await c.reply()).toMatch(/^250 /);
  c.socket.end();
  const until = Date.now() + 20_000;
  while (!posts.some((p) => p.subject === "streamed") && Date.now() < until) await Bun.sleep(50);
  const post = posts.find((p) => p.subject === "streamed")!;
  expect(String(post["body-plain"]).replace(/\r\n/g, "\n")).toBe(line.replace("\r\n", "\n").repeat(2 * lines));
}, 60_000);

test("over the size limit: 552 at the end of DATA, and the pieces already stored are gone", async () => {
  const c = await session();
  c.socket.write(head("too big") + line.repeat(Math.ceil((MAX + 2 * PIECE_BYTES) / line.length)) + ".\r\n");
  expect(await c.reply()).toMatch(/^552 /);
  c.socket.end();
  expect(orphans()).toBe(0);
}, 60_000);

test("a smuggling sequence: 554, nothing kept", async () => {
  const c = await session();
  c.socket.write(`${head("smuggled")}${line.repeat(5000)}hello\n.\nMAIL FROM:<x@y>\r\n${line}.\r\n`);
  expect(await c.reply()).toMatch(/^554 /);
  c.socket.end();
  expect(orphans()).toBe(0);
  await Bun.sleep(300);
  expect(posts.some((p) => p.subject === "smuggled")).toBe(false);
}, 60_000);

test("a connection cut mid-DATA: the pieces already stored are dropped, nothing is committed", async () => {
  const c = await session();
  c.socket.write(head("cut off") + line.repeat(Math.ceil((2 * PIECE_BYTES) / line.length)));
  const end = Date.now() + 20_000;
  while (orphans() === 0 && Date.now() < end) await Bun.sleep(20);
  expect(orphans()).toBeGreaterThan(0); // stored while the client was sending
  c.socket.destroy();
  const until = Date.now() + 20_000;
  while (orphans() > 0 && Date.now() < until) await Bun.sleep(50);
  expect(orphans()).toBe(0);
  expect(posts.some((p) => p.subject === "cut off")).toBe(false);
}, 60_000);
