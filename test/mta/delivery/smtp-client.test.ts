// The hand-written SMTP client against real servers: nodemailer's smtp-server (PIPELINING, no
// CHUNKING) and a private Postfix 3.7 (PIPELINING and CHUNKING). A recording TCP relay between
// client and server shows how many writes a transaction takes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { SmtpClient, type SmtpError } from "../../../src/mta/delivery/smtp-client.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import { freePort } from "../../helpers/free-port.ts";
import { startPostfix, type PostfixInstance } from "../../../bench/postfix.ts";

const message = (subject: string) => Buffer.from(`From: a@example.com\r\nTo: b@dest.test\r\nSubject: ${subject}\r\n\r\nfirst line\r\n.leading dot\r\n..two dots\r\nlast\r\n`);

/** A TCP relay to `port` that keeps every chunk the client wrote, in order. */
async function recordingRelay(port: number): Promise<{ port: number; writes: string[]; server: Server }> {
  const writes: string[] = [];
  const server = createServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    client.on("data", (c) => { writes.push(c.toString("latin1")); upstream.write(c); });
    upstream.on("data", (c) => client.write(c));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => {}); upstream.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { port: (server.address() as { port: number }).port, writes, server };
}

const open = (port: number) => SmtpClient.open({ host: "127.0.0.1", port, isStaticRoute: true }, { hostname: "client.test", tls: "none" });

describe("against smtp-server (PIPELINING, no CHUNKING)", () => {
  let sink: Sink;
  beforeAll(async () => {
    sink = await startSink({ script: (rcpt) => (rcpt.startsWith("refused") ? { code: 550, message: "5.1.1 no such user" } : rcpt.startsWith("later") ? { code: 451, message: "4.7.1 try later" } : null) });
  });
  afterAll(() => sink.close());

  test("MAIL, every RCPT and DATA go in one write; the body is dot-stuffed and arrives intact", async () => {
    const relay = await recordingRelay(sink.port);
    const client = await open(relay.port);
    expect(client.extensions.has("PIPELINING")).toBe(true);
    expect(client.extensions.has("CHUNKING")).toBe(false);
    const before = sink.messages.length;
    const body = message("pipelined");
    const res = await client.send("bounce@example.com", ["one@dest.test", "two@dest.test"], body);
    expect(res).toMatchObject({ accepted: ["one@dest.test", "two@dest.test"], rejected: [] });
    expect(res.response).toMatch(/^250/);
    const envelope = relay.writes.find((w) => w.startsWith("MAIL FROM"))!;
    expect(envelope).toBe(`MAIL FROM:<bounce@example.com> SIZE=${body.length}\r\nRCPT TO:<one@dest.test>\r\nRCPT TO:<two@dest.test>\r\nDATA\r\n`);
    const got = sink.messages[before]!;
    expect(got.to).toEqual(["one@dest.test", "two@dest.test"]);
    expect(got.raw.toString()).toContain("\r\n.leading dot\r\n..two dots\r\nlast\r\n");
    client.close();
    relay.server.close();
  });

  test("one RCPT refused among several: the others get the message, the refusal has its own reply", async () => {
    const client = await open(sink.port);
    const before = sink.messages.length;
    const res = await client.send("bounce@example.com", ["ok1@dest.test", "refused@dest.test", "later@dest.test", "ok2@dest.test"], message("some refused"));
    expect(res.accepted).toEqual(["ok1@dest.test", "ok2@dest.test"]);
    expect(res.rejected.map((r) => [r.email, r.code])).toEqual([["refused@dest.test", 550], ["later@dest.test", 451]]);
    expect(res.rejected[0]!.response).toContain("5.1.1 no such user");
    expect(sink.messages[before]!.to).toEqual(["ok1@dest.test", "ok2@dest.test"]);
    // The connection is still in step: the next transaction works.
    expect((await client.send("bounce@example.com", ["ok3@dest.test"], message("next"))).accepted).toEqual(["ok3@dest.test"]);
    client.close();
  });

  test("every RCPT refused: an error carrying each recipient's reply, the session usable after RSET", async () => {
    const client = await open(sink.port);
    const err = await client.send("bounce@example.com", ["refused1@dest.test", "later2@dest.test"], message("x")).catch((e: SmtpError) => e);
    expect(err).toMatchObject({ command: "RCPT TO", responseCode: 550 });
    expect((err as SmtpError).rejectedErrors!.map((r) => [r.recipient, r.responseCode])).toEqual([["refused1@dest.test", 550], ["later2@dest.test", 451]]);
    expect(client.needsReset).toBe(true);
    expect(client.isBroken).toBe(false);
    await client.reset();
    expect((await client.send("bounce@example.com", ["ok4@dest.test"], message("after reset"))).accepted).toEqual(["ok4@dest.test"]);
    client.close();
  });
});

describe("against smtp-server refusing MAIL or the message", () => {
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({ authOptional: true, disabledCommands: ["AUTH", "STARTTLS"], logger: false,
      onMailFrom(addr, _s, cb) {
        if (addr.address.startsWith("closing")) return cb(Object.assign(new Error("4.7.0 too busy, closing"), { responseCode: 421 }));
        cb(addr.address.startsWith("blocked") ? Object.assign(new Error("5.7.1 sender blocked"), { responseCode: 550 }) : undefined);
      },
      onData(stream, _s, cb) {
        let body = "";
        stream.on("data", (c: Buffer) => { body += c.toString(); });
        stream.on("end", () => cb(body.includes("Subject: spam") ? Object.assign(new Error("5.7.1 looks like spam"), { responseCode: 554 }) : null));
      } });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test("a refused MAIL FROM is an error with its reply and command", async () => {
    const client = await open(port);
    const err = await client.send("blocked@example.com", ["a@dest.test"], message("x")).catch((e: SmtpError) => e);
    expect(err).toMatchObject({ command: "MAIL FROM", responseCode: 550 });
    expect((err as SmtpError).response).toContain("sender blocked");
    client.close();
  });

  test("a 421 to a pipelined MAIL, then the server closes: the 421 is the outcome, the connection is broken", async () => {
    const client = await open(port);
    const err = await client.send("closing@example.com", ["a@dest.test", "b@dest.test"], message("x")).catch((e: SmtpError) => e);
    expect(err).toMatchObject({ command: "MAIL FROM", responseCode: 421 });
    while (!client.isBroken) await Bun.sleep(5);
    client.close();
  });

  test("a message refused at the end of DATA is an error with the DATA reply; the connection goes on", async () => {
    const client = await open(port);
    const err = await client.send("bounce@example.com", ["a@dest.test"], message("spam")).catch((e: SmtpError) => e);
    expect(err).toMatchObject({ command: "DATA", responseCode: 554 });
    expect((await client.send("bounce@example.com", ["a@dest.test"], message("fine"))).accepted).toEqual(["a@dest.test"]);
    client.close();
  });
});

describe("against smtp-server without PIPELINING", () => {
  let server: SMTPServer;
  let port: number;
  let relay: Awaited<ReturnType<typeof recordingRelay>>;
  const got: string[][] = [];
  beforeAll(async () => {
    server = new SMTPServer({ authOptional: true, disabledCommands: ["AUTH", "STARTTLS"], hidePIPELINING: true, logger: false,
      onRcptTo(addr, _s, cb) { cb(addr.address.startsWith("refused") ? Object.assign(new Error("5.1.1 no such user"), { responseCode: 550 }) : undefined); },
      onData(stream, session, cb) { stream.on("data", () => {}); stream.on("end", () => { got.push(session.envelope.rcptTo.map((r) => r.address)); cb(null); }); } });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.server.address() as { port: number }).port;
    relay = await recordingRelay(port);
  });
  afterAll(async () => { relay.server.close(); await new Promise<void>((r) => server.close(() => r())); });

  test("one command per write, in lockstep; refusals map per recipient; every RCPT refused stops before DATA", async () => {
    const client = await open(relay.port);
    expect(client.extensions.has("PIPELINING")).toBe(false);
    const res = await client.send("bounce@example.com", ["ok@dest.test", "refused@dest.test"], message("lockstep"));
    expect(res.accepted).toEqual(["ok@dest.test"]);
    expect(res.rejected).toMatchObject([{ email: "refused@dest.test", code: 550 }]);
    expect(got.at(-1)).toEqual(["ok@dest.test"]);
    const commands = relay.writes.filter((w) => /^(MAIL|RCPT|DATA)/.test(w));
    expect(commands.map((w) => w.split(/[: \r]/)[0])).toEqual(["MAIL", "RCPT", "RCPT", "DATA"]);
    const before = relay.writes.length;
    const err = await client.send("bounce@example.com", ["refused@dest.test"], message("none")).catch((e: SmtpError) => e);
    expect(err).toMatchObject({ command: "RCPT TO", responseCode: 550 });
    expect(relay.writes.slice(before).some((w) => w.startsWith("DATA"))).toBe(false);
    await client.reset();
    expect((await client.send("bounce@example.com", ["ok2@dest.test"], message("again"))).accepted).toEqual(["ok2@dest.test"]);
    client.close();
  });
});

// Postfix's master runs as root; without root or the Debian package there is nothing to test against.
const postfixReady = Bun.which("postfix") !== null || (await Bun.file("/usr/sbin/postfix").exists());
const canRunPostfix = postfixReady && process.getuid?.() === 0;

describe.skipIf(!canRunPostfix)("against a private Postfix 3.7 (PIPELINING and CHUNKING; skipped unless root with postfix installed)", () => {
  let sink: Sink;
  let pf: PostfixInstance;
  let dir: string;
  beforeAll(async () => {
    sink = await startSink({ hideStartTls: true });
    dir = mkdtempSync(join(tmpdir(), "postfix-client-"));
    writeFileSync(join(dir, "rcpt"), "/^refused@/ REJECT 5.1.1 no such user\n");
    writeFileSync(join(dir, "headers"), "/^Subject: spam/ REJECT 5.7.1 looks like spam\n");
    const port = await freePort();
    pf = startPostfix(dir, { port, relayPort: sink.port, concurrency: 2, extra: {
      smtpd_recipient_restrictions: `check_recipient_access regexp:${join(dir, "rcpt")}, permit_mynetworks, reject`,
      header_checks: `regexp:${join(dir, "headers")}` } })!;
    for (let i = 0; i < 100; i++) {
      const c = await open(port).catch(() => null);
      if (c) { c.close(); break; }
      await Bun.sleep(100);
    }
  }, 30_000);
  afterAll(async () => { pf?.stop(); await sink?.close(); rmSync(dir, { recursive: true, force: true }); });

  test("MAIL, RCPT and BDAT <n> LAST with the message go in one write; Postfix relays it intact", async () => {
    const relay = await recordingRelay(pf.port);
    const client = await open(relay.port);
    expect(client.extensions.has("CHUNKING")).toBe(true);
    const body = message("chunked");
    const res = await client.send("bounce@example.com", ["one@dest.test", "two@dest.test"], body);
    expect(res.accepted).toEqual(["one@dest.test", "two@dest.test"]);
    const write = relay.writes.find((w) => w.startsWith("MAIL FROM"))!;
    expect(write).toBe(`MAIL FROM:<bounce@example.com> SIZE=${body.length}\r\nRCPT TO:<one@dest.test>\r\nRCPT TO:<two@dest.test>\r\nBDAT ${body.length} LAST\r\n${body.toString("latin1")}`);
    const [got] = (await sink.waitFor(1, 20_000)).filter((m) => m.raw.includes("Subject: chunked"));
    expect(got!.raw.toString()).toContain("\r\n.leading dot\r\n..two dots\r\nlast\r\n");
    client.close();
    relay.server.close();
  }, 30_000);

  test("one RCPT refused among several, then a message refused at BDAT: each reply maps to its step", async () => {
    const client = await open(pf.port);
    const res = await client.send("bounce@example.com", ["ok@dest.test", "refused@dest.test"], message("partly"));
    expect(res.accepted).toEqual(["ok@dest.test"]);
    expect(res.rejected).toMatchObject([{ email: "refused@dest.test", code: 554 }]);
    expect(res.rejected[0]!.response).toContain("5.1.1");
    const err = await client.send("bounce@example.com", ["ok@dest.test"], message("spam")).catch((e: SmtpError) => e);
    expect(err).toMatchObject({ command: "BDAT", responseCode: 550 });
    expect((err as SmtpError).response).toContain("5.7.1");
    const all = await client.send("bounce@example.com", ["refused@dest.test"], message("none")).catch((e: SmtpError) => e);
    expect(all).toMatchObject({ command: "RCPT TO" });
    await client.reset();
    expect((await client.send("bounce@example.com", ["ok@dest.test"], message("again"))).accepted).toEqual(["ok@dest.test"]);
    client.close();
  }, 30_000);
});
