import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import type { Principal } from "../../src/core/model.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/reports");
let t: TestApp;
let sink: Sink;
let smtpPort = 0;
let principal: Principal;

beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[webhooks]\nallow_private = true\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  const where = await t.app.start();
  smtpPort = Number(where.smtp!.split(":").pop());
  principal = (await t.app.access.authenticate(t.domainKey))!;
  await t.app.access.setCredential("example.com", "app", "s3cret-pass-123");
});
afterAll(async () => { await t.close(); await sink.close(); });

/** Sends one message to `rcpt` through postern and returns the VERP return path it used. */
async function sendAndCapture(rcpt: string): Promise<string> {
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
    envelopes: [{ to: [{ email: rcpt }], subject: "hi", text: "body" }] });
  const msgs = await sink.waitFor(before + 1);
  return msgs[before]!.from;
}

function smtpSend(opts: { from: string; to: string[]; raw: string | Buffer; auth?: { user: string; pass: string } }): Promise<{ ok: boolean; code?: number; response?: string }> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
  return new Promise((resolve) => {
    conn.on("error", (e: Error & { responseCode?: number; response?: string }) => resolve({ ok: false, code: e.responseCode, response: e.response }));
    conn.connect(() => {
      const go = () => conn.send({ from: opts.from, to: opts.to }, opts.raw, (err, info) => {
        conn.quit();
        if (err) resolve({ ok: false, code: (err as { responseCode?: number }).responseCode, response: (err as { response?: string }).response });
        else resolve({ ok: true, response: info.response });
      });
      if (!opts.auth) return go();
      conn.login({ user: opts.auth.user, pass: opts.auth.pass }, (err) => {
        if (err) { conn.quit(); return resolve({ ok: false, code: (err as { responseCode?: number }).responseCode }); }
        go();
      });
    });
  });
}

/** Speaks SMTP line by line over a raw socket; returns the reply to the greeting and each line. */
async function rawDialog(lines: string[]): Promise<string[]> {
  const { connect } = await import("node:net");
  const socket = connect(smtpPort, "127.0.0.1");
  const replies: string[] = [];
  let buffer = "";
  let notify: (() => void) | null = null;
  socket.on("data", (d) => { buffer += d.toString(); notify?.(); });
  const nextReply = async () => {
    for (;;) {
      const m = /^(\d{3}) .*\r\n/m.exec(buffer);
      if (m) { const end = m.index + m[0].length; const reply = buffer.slice(m.index, end).trim(); buffer = buffer.slice(end); return reply; }
      await new Promise<void>((r) => { notify = r; setTimeout(r, 200); });
    }
  };
  replies.push(await nextReply());
  for (const line of lines) {
    socket.write(line.endsWith("\r\n") ? line : `${line}\r\n`);
    replies.push(await nextReply());
  }
  socket.destroy();
  return replies;
}

const fixture = (name: string, returnPath: string, rcpt: string, fixtureRcpt: string) =>
  readFileSync(join(FIXTURES, name), "utf8")
    .replace(/b\+[a-z2-7]+@bounces\.example\.com/g, returnPath)
    .replaceAll(fixtureRcpt, rcpt);

async function eventsOf(rcpt: string) {
  for (let i = 0; i < 40; i++) {
    const ev = await t.app.activity.events("example.com", { recipient: rcpt, limit: 20, ascending: true });
    if (ev.some((e) => e.type === "failed" || e.type === "complained")) return ev;
    await Bun.sleep(50);
  }
  return t.app.activity.events("example.com", { recipient: rcpt, limit: 20, ascending: true });
}

describe("inbound reports", () => {
  const bounces: [string, string][] = [
    ["postfix-hard-5.1.1.eml", "nosuchuser@remote.example"], ["gmail-5.1.1.eml", "nosuchuser.abc@gmail.com"],
    ["o365-5.1.10.eml", "nobody@contoso.com"], ["exim-5.1.1.eml", "gone@remote.example"],
  ];
  for (const [file, fixtureRcpt] of bounces) {
    test(`a ${file.split("-")[0]} DSN to the VERP address fails its recipient and suppresses it`, async () => {
      const rcpt = `${file.split(".")[0]}@dest.test`;
      const returnPath = await sendAndCapture(rcpt);
      const res = await smtpSend({ from: "", to: [returnPath], raw: fixture(file, returnPath, rcpt, fixtureRcpt) });
      expect(res.ok).toBe(true);
      const types = (await eventsOf(rcpt)).map((e) => e.type);
      expect(types).toEqual(["accepted", "delivered", "failed"]);
      expect(await t.app.suppressions.get("example.com", "bounces", rcpt)).not.toBeNull();
    });
  }

  test("with the domain receiving mail (a catch_all route), a DSN to the VERP address is still a bounce, not a routed message", async () => {
    const posts: string[] = [];
    const target = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) { posts.push(await req.text()); return new Response("ok"); } });
    const account = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
    await t.app.domains.set("example.com", { inbound: true });
    const route = await t.app.inboundRules.createRoute(account, { priority: 0, description: "", expression: "catch_all()", actions: [`forward("http://127.0.0.1:${target.port}/in")`] });
    try {
      const rcpt = "inbound-on@dest.test";
      const returnPath = await sendAndCapture(rcpt);
      expect((await smtpSend({ from: "", to: [returnPath], raw: fixture("postfix-hard-5.1.1.eml", returnPath, rcpt, "nosuchuser@remote.example") })).ok).toBe(true);
      expect((await eventsOf(rcpt)).map((e) => e.type)).toEqual(["accepted", "delivered", "failed"]);
      const mail = "From: a@sender.example\r\nTo: desk@example.com\r\nSubject: routed one\r\n\r\nhi\r\n";
      expect((await smtpSend({ from: "a@sender.example", to: ["desk@example.com"], raw: mail })).ok).toBe(true);
      for (let i = 0; i < 200 && !posts.length; i++) await Bun.sleep(50);
      await Bun.sleep(300);
      expect(posts).toHaveLength(1); // the routed message only, not the DSN
      expect(posts[0]).toContain("routed+one");
    } finally {
      await t.app.inboundRules.remove(account, "route", route.id);
      await t.app.domains.set("example.com", { inbound: false });
      target.stop(true);
    }
  });

  // Bounces as they really arrive, each through a real send and its VERP path: what is recorded and
  // whether the address is suppressed (hard bounces only).
  const CORPUS = join(import.meta.dir, "../fixtures/bounces/corpus");
  const real: [string, string, number, boolean][] = [
    ["ezweb-unknown.eml", "failed", 10, true], // a carrier's text bounce, sender not mailer-daemon
    ["forwarded-dsn.eml", "failed", 10, true], // a DSN forwarded as an attachment
    ["gmail-overquota.eml", "failed", 22, false], // soft: never suppresses
    ["postfix-spamhaus.eml", "failed", 51, false], // block: never suppresses
    ["dsn-4xx-failed-quota.eml", "failed", 22, false], // "failed" with a 4.x.x status: the remote MTA gave up (RFC 3464 §2.3.3); soft, never suppresses
    ["postfix-delayed.eml", "deferred", 24, false],
  ];
  for (const [file, type, bounceClass, suppressed] of real) {
    test(`${file}: ${type}, class ${bounceClass}, ${suppressed ? "suppressed" : "not suppressed"}`, async () => {
      const rcpt = `${file.split(".")[0]}@dest.test`;
      const returnPath = await sendAndCapture(rcpt);
      const raw = readFileSync(join(CORPUS, file), "utf8").replace(/b\+[a-z2-7]+@bounces\.example\.com/g, returnPath).replaceAll("rcpt@dest.example", rcpt);
      expect((await smtpSend({ from: "", to: [returnPath], raw })).ok).toBe(true);
      let events = await eventsOf(rcpt);
      for (let i = 0; i < 40 && !events.some((e) => e.type === type); i++) { await Bun.sleep(50); events = await eventsOf(rcpt); }
      expect(events.find((e) => e.type === type)).toMatchObject({ bounceClass });
      expect(Boolean(await t.app.suppressions.get("example.com", "bounces", rcpt))).toBe(suppressed);
    });
  }

  test("an ARF complaint becomes a complained event and a complaint suppression", async () => {
    const rcpt = "reader@dest.test";
    const returnPath = await sendAndCapture(rcpt);
    const raw = fixture("arf-yahoo.eml", returnPath, rcpt, "reader.one@yahoo.com");
    const res = await smtpSend({ from: "", to: ["fbl@example.com"], raw });
    expect(res.ok).toBe(true);
    expect((await eventsOf(rcpt)).map((e) => e.type)).toContain("complained");
    expect(await t.app.suppressions.get("example.com", "complaints", rcpt)).not.toBeNull();
  });

  test("a report matched only by X-Postern-Id (no VERP) records nothing that fails or suppresses anyone", async () => {
    const victim = "victim@dest.test";
    const returnPath = await sendAndCapture(victim);
    const sent = sink.messages.at(-1)!.raw.toString();
    const posternId = /^X-Postern-Id: (\S+)/im.exec(sent)![1]!;
    const forged = fixture("postfix-hard-5.1.1.eml", "attacker@evil.test", victim, "nosuchuser@remote.example")
      .replace(/^Message-ID: <[^>]+>$/m, (h) => `${h}\r\nX-Postern-Id: ${posternId}`);
    void returnPath;
    const res = await smtpSend({ from: "", to: ["postmaster@example.com"], raw: forged });
    expect(res.ok).toBe(true);
    await Bun.sleep(100);
    expect(await t.app.suppressions.get("example.com", "bounces", victim)).toBeNull();
    const rcpts = await t.app.store.zone("us").listRecipients((await t.app.activity.events("example.com", { recipient: victim, limit: 1 }))[0]!.messageId);
    expect(rcpts[0]!.status).toBe("delivered");
  });

  test("a message that is not a report is refused", async () => {
    const returnPath = await sendAndCapture("other@dest.test");
    const res = await smtpSend({ from: "x@y.test", to: [returnPath], raw: readFileSync(join(FIXTURES, "not-report-reply.eml")) });
    expect(res).toMatchObject({ ok: false, code: 550 });
  });

  test("a client that resets its connection mid-session does not take the server down", async () => {
    const { connect } = await import("node:net");
    const socket = connect(smtpPort, "127.0.0.1");
    await new Promise<void>((r) => socket.once("data", () => r()));
    socket.write("EHLO crash.test\r\nMAIL FROM:<a@b.test>\r\n");
    (socket as unknown as { resetAndDestroy?: () => void }).resetAndDestroy?.() ?? socket.destroy();
    await Bun.sleep(100);
    const res = await smtpSend({ from: "spam@evil.test", to: ["victim@elsewhere.test"], raw: "Subject: x\r\n\r\nbody\r\n" });
    expect(res).toMatchObject({ ok: false, code: 554 }); // still answering
  });

  test("relaying for strangers is refused", async () => {
    const res = await smtpSend({ from: "spam@evil.test", to: ["victim@elsewhere.test"], raw: "Subject: x\r\n\r\nbody\r\n" });
    expect(res).toMatchObject({ ok: false, code: 554 });
  });

  test("a forged VERP token is refused like any stranger", async () => {
    const res = await smtpSend({ from: "", to: ["b+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@bounces.example.com"], raw: "Subject: x\r\n\r\nbody\r\n" });
    expect(res).toMatchObject({ ok: false, code: 554 });
  });
});

describe("authenticated submission", () => {
  const raw = "From: App <app@example.com>\r\nTo: someone@dest.test\r\nSubject: via smtp\r\n\r\nhello over SMTP\r\n";

  test("a good credential submits through the core and the message is delivered", async () => {
    const before = sink.messages.length;
    const res = await smtpSend({ from: "app@example.com", to: ["someone@dest.test"], raw, auth: { user: "app@example.com", pass: "s3cret-pass-123" } });
    expect(res.ok).toBe(true);
    const msgs = await sink.waitFor(before + 1);
    const got = msgs[before]!;
    expect(got.to).toEqual(["someone@dest.test"]);
    expect(got.raw.toString()).toContain("hello over SMTP");
    expect(got.raw.toString()).toContain("DKIM-Signature:");
  });

  test("a bad password is refused", async () => {
    const res = await smtpSend({ from: "app@example.com", to: ["someone@dest.test"], raw, auth: { user: "app@example.com", pass: "wrong" } });
    expect(res).toMatchObject({ ok: false, code: 535 });
  });

  test("a sender outside the credential's domain is refused", async () => {
    const res = await smtpSend({ from: "x@other.test", to: ["someone@dest.test"], raw: raw.replace("app@example.com", "x@other.test"),
      auth: { user: "app@example.com", pass: "s3cret-pass-123" } });
    expect(res.ok).toBe(false);
  });

  // nodemailer's client repairs bare line endings, so these go over a raw socket.
  for (const [what, body] of [["a smuggling sequence", "body\n.\r\nMAIL FROM:<evil@x>\r\n"], ["a bare LF", "line one\nline two\r\n"]]) {
    test(`${what} in DATA is refused`, async () => {
      const auth = Buffer.from("\0app@example.com\0s3cret-pass-123").toString("base64");
      const data = `From: app@example.com\r\nTo: someone@dest.test\r\nSubject: x\r\n\r\n${body}.\r\n`;
      const replies = await rawDialog(["EHLO client.test", `AUTH PLAIN ${auth}`, "MAIL FROM:<app@example.com>", "RCPT TO:<someone@dest.test>", "DATA", data, "QUIT"]);
      expect(replies[6] ?? replies.join(" / ")).toStartWith("554 5.5.2");
    });
  }
});

// Last in this file: it locks 127.0.0.1 out of AUTH for a while.
describe("SMTP AUTH cannot be guessed", () => {
  test("wrong passwords lock the login and the IP out: the right password after them gets 454, not 235", async () => {
    const plain = (pass: string) => `AUTH PLAIN ${Buffer.from(`\0app@example.com\0${pass}`).toString("base64")}`;
    const guesses = Array.from({ length: 25 }, (_, i) => plain(`guess-number-${i}`));
    const replies = await rawDialog(["EHLO client.test", ...guesses, plain("s3cret-pass-123"), "QUIT"]);
    const codes = replies.slice(2, 27).map((r) => r.slice(0, 3));
    // (The bad-password test above already spent one of this IP's five free failures.)
    expect(codes[0]).toBe("535");
    expect(codes.filter((c) => c === "535").length).toBeLessThanOrEqual(5);
    expect(codes.slice(5).every((c) => c === "454" || c === "421")).toBe(true);
    expect(replies[27]!.slice(0, 3)).not.toBe("235");
  }, 30_000);

  test("given passwords are at least 12 characters; generated ones 24", async () => {
    await expect(t.app.access.setCredential("example.com", "short", "abcde")).rejects.toThrow(/12 to 128/);
    expect((await t.app.access.setCredential("example.com", "gen")).password).toMatch(/^[0-9a-z]{24}$/);
  });
});
