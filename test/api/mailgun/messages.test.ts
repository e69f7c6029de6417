import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import PostalMime, { decodeWords } from "postal-mime";
import { startHarness, eventually, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const parse = (raw: Buffer) => PostalMime.parse(raw);
const bySubject = async (subject: string, n = 1) => {
  await eventually(async () => h.sink.messages.filter((m) => m.raw.toString().includes(`Subject: ${subject}`)).length >= n);
  return h.sink.messages.filter((m) => m.raw.toString().includes(`Subject: ${subject}`));
};
const recipientsOf = async (messageId: string) =>
  (await h.t.app.activity.message("example.com", messageId.replace(/^<|@.*$/g, "")))!.recipients;

describe("POST /v3/{domain}/messages through mailgun.js", () => {
  test("delivers every field of the reference: addresses, bodies, files, tags, headers, user variables", async () => {
    const res = await h.mg.messages.create("example.com", {
      from: "Excited User <me@example.com>", to: ["a@dest.test", '"Bee, B" <b@dest.test>, c@dest.test'], cc: "d@dest.test", bcc: "e@dest.test",
      subject: "Full reference", text: "plain body", html: "<p>html body <img src=\"cid:logo.png\"></p>", "amp-html": "<html amp4email><body>amp</body></html>",
      attachment: [{ filename: "a.txt", data: Buffer.from("attached text") }], inline: [{ filename: "logo.png", data: Buffer.from("png-bytes") }],
      "o:tag": ["t1", "t2"], "o:tracking": false, "o:dkim": true, "h:X-Custom": "custom value", "h:Reply-To": "reply@example.com",
      "v:order-id": "42", "v:my-var": JSON.stringify({ a: 1 }),
    });
    expect(res).toMatchObject({ status: 200, message: "Queued. Thank you." });
    expect(res.id).toMatch(/^<[0-9a-z]+@mta\.test>$/);
    // The MTA may deliver one transaction per recipient (per-recipient tracking links).
    const all = await bySubject("Full reference");
    await eventually(async () => (await bySubject("Full reference")).flatMap((m) => m.to).length >= 5);
    expect((await bySubject("Full reference")).flatMap((m) => m.to).sort()).toEqual(["a@dest.test", "b@dest.test", "c@dest.test", "d@dest.test", "e@dest.test"]);
    const msg = all[0];
    for (const m of await bySubject("Full reference")) expect(m.raw.toString()).not.toContain("e@dest.test");
    const mail = await parse(msg!.raw);
    expect(mail.from).toEqual({ name: "Excited User", address: "me@example.com" });
    expect(mail.to!.map((a) => a.address)).toEqual(["a@dest.test", "b@dest.test", "c@dest.test"]);
    expect(mail.to![1]!.name).toBe("Bee, B");
    expect(mail.cc!.map((a) => a.address)).toEqual(["d@dest.test"]);
    expect(mail.replyTo!.map((a) => a.address)).toEqual(["reply@example.com"]);
    expect(mail.text!.trim()).toBe("plain body");
    expect(mail.html).toContain("html body");
    // nodemailer writes JSON header values as RFC 2047 encoded words; a reader decodes them.
    const header = (name: string) => decodeWords(mail.headers.find((x) => x.key === name)?.value ?? "");
    expect(header("x-custom")).toBe("custom value");
    expect(JSON.parse(header("x-mailgun-variables")!)).toEqual({ "order-id": "42", "my-var": '{"a":1}' });
    expect(mail.messageId).toBe(res.id);
    const files = mail.attachments.map((a) => [a.filename, a.mimeType, a.disposition, a.contentId ?? null]);
    expect(files).toContainEqual(["a.txt", "text/plain", "attachment", null]);
    expect(files).toContainEqual(["logo.png", "image/png", "inline", "<logo.png>"]);
    const stored = await h.t.app.activity.message("example.com", res.id!.replace(/^<|@.*$/g, ""));
    expect(stored!.message.tags).toEqual(["t1", "t2"]);
    expect(stored!.message.metadata).toEqual({ "order-id": "42", "my-var": '{"a":1}' });
  });

  test("batch sending with recipient-variables sends one copy per recipient that shows no other address", async () => {
    const vars = { "alice@dest.test": { name: "Alice", id: 1 }, "bob@dest.test": { name: "Bob", id: 2 }, "carol@dest.test": { name: "Carol", nested: { x: "deep" } } };
    await h.mg.messages.create("example.com", {
      from: "news@example.com", to: ["Alice <alice@dest.test>", "bob@dest.test", "carol@dest.test"], subject: "Batch for %recipient.name%",
      text: "Hello %recipient.name%, id %recipient.id%, you are %recipient%, [%recipient.nested.x%]", html: "<p>%recipient.name%</p>",
      "v:uid": "%recipient.id%", "recipient-variables": JSON.stringify(vars),
    });
    const copies = await bySubject("Batch for", 3);
    expect(copies).toHaveLength(3);
    const seen = await Promise.all(copies.map(async (c) => ({ rcpt: c.to, raw: c.raw.toString(), mail: await parse(c.raw) })));
    for (const { rcpt, raw, mail } of seen) {
      expect(rcpt).toHaveLength(1);
      const others = Object.keys(vars).filter((a) => a !== rcpt[0]);
      for (const other of others) expect(raw).not.toContain(other);
      expect(mail.to!.map((a) => a.address)).toEqual(rcpt);
    }
    const alice = seen.find((s) => s.rcpt[0] === "alice@dest.test")!.mail;
    expect(alice.subject).toBe("Batch for Alice");
    expect(alice.text!.trim()).toBe("Hello Alice, id 1, you are alice@dest.test, []");
    expect(JSON.parse(decodeWords(alice.headers.find((x) => x.key === "x-mailgun-variables")!.value))).toEqual({ uid: "1" });
    const carol = seen.find((s) => s.rcpt[0] === "carol@dest.test")!.mail;
    expect(carol.text!.trim()).toBe("Hello Carol, id , you are carol@dest.test, [deep]");
    expect(carol.html).toContain("<p>Carol</p>");
  });

  test("renders a stored template by name with t:variables", async () => {
    const dir = h.t.app.config.storage.templates_dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "welcome.html"), "<h1>Welcome {{name}}</h1><p>{{plan}}</p>");
    writeFileSync(join(dir, "welcome.subject"), "Welcome aboard {{name}}");
    const res = await h.mg.messages.create("example.com", { from: "hi@example.com", to: "tpl@dest.test", template: "welcome", "t:variables": JSON.stringify({ name: "Tess" }),
      "v:plan": "gold", "o:sending-ip-pool": "default" });
    const stored = await h.t.app.activity.message("example.com", res.id!.replace(/^<|@.*$/g, ""));
    expect(stored!.message.extra).toEqual({ templateId: "welcome", ipPool: "default" });
    const [msg] = await bySubject("Welcome aboard Tess");
    const mail = await parse(msg!.raw);
    expect(mail.html).toContain("<h1>Welcome Tess</h1><p>gold</p>");
    const err = await h.mg.messages.create("example.com", { from: "hi@example.com", to: "tpl@dest.test", template: "missing" }).catch((e) => e);
    expect(err).toMatchObject({ status: 400, details: 'template "missing" not found' });
  });

  test("o:testmode accepts without delivering and reports delivered with code 650; o:deliverytime schedules the send", async () => {
    const test = await h.mg.messages.create("example.com", { from: "a@example.com", to: "quiet@dest.test", subject: "test mode", text: "x", "o:testmode": true });
    expect((await recipientsOf(test.id!)).map((r) => r.status)).toEqual(["test"]);
    const { items } = await h.mg.events.get("example.com", { event: "delivered", recipient: "quiet@dest.test" });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ event: "delivered", "delivery-status": { code: 650 }, flags: { "is-test-mode": true } });
    const at = new Date(Date.now() + 3600_000);
    at.setUTCMilliseconds(0);
    const later = await h.mg.messages.create("example.com", { from: "a@example.com", to: "later@dest.test", subject: "later", text: "x", "o:deliverytime": at.toUTCString() });
    const [rcpt] = await recipientsOf(later.id!);
    expect(rcpt!.nextAttemptAt).toBe(at.getTime());
    const err = await h.mg.messages.create("example.com", { from: "a@example.com", to: "x@dest.test", text: "x", "o:deliverytime": "next tuesday" }).catch((e) => e);
    expect(err).toMatchObject({ status: 400, details: "next tuesday is not an RFC-2822 compliant date" });
  });

  test("a suppressed address is not delivered and gets a permanent failed event", async () => {
    await h.mg.suppressions.create("example.com", "bounces", { address: "bounced@dest.test", code: 550, error: "gone" });
    const res = await h.mg.messages.create("example.com", { from: "a@example.com", to: "bounced@dest.test", subject: "to a bounce", text: "x" });
    expect(res.status).toBe(200);
    const { items } = await h.mg.events.get("example.com", { event: "failed", recipient: "bounced@dest.test" });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ event: "failed", severity: "permanent", reason: "suppress-bounce", recipient: "bounced@dest.test",
      "delivery-status": { code: 605 }, message: { headers: { "message-id": res.id!.slice(1, -1) } } });
  });
});

describe("POST /v3/{domain}/messages.mime", () => {
  const mime = (subject: string) => `From: Raw Sender <raw@example.com>\r\nTo: list@dest.test\r\nBcc: hidden@dest.test\r\nSubject: ${subject}\r\n` +
    `MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nraw body\r\n`;

  test("sends the message field given as a string (a text part) to the form's to", async () => {
    const res = await h.mg.messages.create("example.com", { to: ["m1@dest.test", "m2@dest.test"], message: mime("Mime as string"), "h:X-Extra": "yes", "v:k": "v" });
    expect(res).toMatchObject({ status: 200, message: "Queued. Thank you." });
    await eventually(async () => (await bySubject("Mime as string")).flatMap((m) => m.to).length >= 2);
    const copies = await bySubject("Mime as string");
    expect(copies.flatMap((m) => m.to).sort()).toEqual(["m1@dest.test", "m2@dest.test"]);
    const msg = copies[0];
    const mail = await parse(msg!.raw);
    expect(mail.text!.trim()).toBe("raw body");
    expect(mail.headers.find((x) => x.key === "x-extra")?.value).toBe("yes");
    expect(mail.headers.find((x) => x.key === "x-mailgun-variables")?.value).toBe('{"k":"v"}');
    for (const m of copies) expect(m.raw.toString()).not.toContain("hidden@dest.test");
  });

  test("sends the message field given as a Buffer (a MimeMessage file part)", async () => {
    await h.mg.messages.create("example.com", { to: "m3@dest.test", message: Buffer.from(mime("Mime as file")) });
    const [msg] = await bySubject("Mime as file");
    expect(msg!.to).toEqual(["m3@dest.test"]);
  });

  test("refuses a message whose From is not of the domain, and one without to", async () => {
    const bad = await h.mg.messages.create("example.com", { to: "x@dest.test", message: "From: a@elsewhere.test\r\nSubject: s\r\n\r\nb" }).catch((e) => e);
    expect(bad.status).toBe(400);
    expect(bad.details).toContain("example.com");
    const res = await h.call("POST", "/v3/example.com/messages.mime", { body: new URLSearchParams({ message: mime("x") }) });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ message: "to parameter is missing" });
  });
});
