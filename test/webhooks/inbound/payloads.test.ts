import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import nodemailer from "nodemailer";
import Parse from "@sendgrid/inbound-mail-parser";
import { parseReceived, type ReceivedEnvelope } from "../../../src/webhooks/inbound/received.ts";
import { mailgunForward, mailgunStoreNotify } from "../../../src/webhooks/inbound/mailgun.ts";
import { sendgridParse } from "../../../src/webhooks/inbound/sendgrid.ts";
import { relayBatch, relayMessage } from "../../../src/webhooks/inbound/sparkpost.ts";
import { stripReply } from "../../../src/webhooks/inbound/strip.ts";

async function compose(): Promise<Uint8Array> {
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await t.sendMail({
    from: "Zoë Sender <zoe@sender.example>", to: "support@in.example.com", cc: "copy@in.example.com",
    subject: "Grüße — ticket 42 ✓", text: "Hello there\n\nThanks\n-- \nZoë\n\nOn Mon, 1 Jan 2026 Bob wrote:\n> earlier text",
    html: "<p>Hello <b>there</b></p><blockquote>earlier</blockquote>",
    attachments: [{ filename: "notes.txt", content: "attached text" }, { filename: "dot.png", content: Buffer.from([137, 80, 78, 71]), cid: "dot@x" }],
  });
  return new Uint8Array(info.message as Buffer);
}

const env: ReceivedEnvelope = {
  id: "m1", domain: "in.example.com", mailFrom: "bounce@sender.example", rcptTo: ["support@in.example.com"], remoteIp: "127.0.0.1",
  heloName: "client.test", receivedAt: 1_700_000_000_000, auth: { spf: "pass", dkim: [{ domain: "sender.example", result: "pass" }], dmarc: "pass" },
};
const sig = (() => { const timestamp = "1700000000", token = "t".repeat(50); return { timestamp, token, signature: createHmac("sha256", "key").update(timestamp + token).digest("hex") }; })();

async function form(post: { body: Uint8Array; headers: Record<string, string> }) {
  return new Request("http://x/", { method: "POST", body: post.body, headers: post.headers }).formData();
}

describe("Mailgun forward()", () => {
  test("posts the parsed message with attachments, headers and a verifiable signature", async () => {
    const raw = await compose();
    const f = await form(await mailgunForward(env, await parseReceived(raw), raw, "support@in.example.com", "https://app.test/in", sig));
    expect(f.get("recipient")).toBe("support@in.example.com");
    expect(f.get("sender")).toBe("bounce@sender.example");
    expect(f.get("subject")).toBe("Grüße — ticket 42 ✓");
    expect(String(f.get("stripped-text")).replace(/\r\n/g, "\n")).toBe("Hello there\n\nThanks");
    expect(f.get("stripped-signature")).toBe("Zoë");
    expect(String(f.get("body-html"))).toContain("<blockquote>");
    expect(String(f.get("stripped-html"))).not.toContain("blockquote");
    expect(f.get("attachment-count")).toBe("2");
    const files = [f.get("attachment-1"), f.get("attachment-2")] as File[];
    const notes = files.find((x) => x.name === "notes.txt")!;
    expect(await notes.text()).toBe("attached text");
    const dot = files.indexOf(files.find((x) => x.name === "dot.png")!) + 1;
    expect(JSON.parse(String(f.get("content-id-map")))).toEqual({ "<dot@x>": `attachment-${dot}` });
    expect(JSON.parse(String(f.get("message-headers"))).some(([k]: [string]) => k === "Subject")).toBe(true);
    expect(f.get("Subject")).toBeTruthy();
    expect(createHmac("sha256", "key").update(String(f.get("timestamp")) + String(f.get("token"))).digest("hex")).toBe(String(f.get("signature")));
  });
  test("a URL ending in mime gets the raw message", async () => {
    const raw = await compose();
    const f = await form(await mailgunForward(env, await parseReceived(raw), raw, "support@in.example.com", "https://app.test/messages.mime", sig));
    expect(String(f.get("body-mime"))).toContain("Subject:");
    expect(f.get("body-plain")).toBeNull();
  });
  test("store notify carries the message URL and attachment URLs, url-encoded", async () => {
    const raw = await compose();
    const post = await mailgunStoreNotify(env, await parseReceived(raw), "support@in.example.com", "http://h/v3/domains/in.example.com/messages/K", sig);
    expect(post.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const f = await form(post);
    expect(f.get("message-url")).toBe("http://h/v3/domains/in.example.com/messages/K");
    expect(JSON.parse(String(f.get("attachments"))).find((a: { name: string }) => a.name === "notes.txt")).toMatchObject({ name: "notes.txt", size: 13 });
  });
});

describe("SendGrid Inbound Parse", () => {
  test("parsed posts read back with SendGrid's own parser", async () => {
    const raw = await compose();
    const f = await form(await sendgridParse(env, await parseReceived(raw), raw, { hostname: "in.example.com", url: "u", spamCheck: false, sendRaw: false }, null));
    const body = Object.fromEntries([...f.entries()].filter(([, v]) => typeof v === "string"));
    const kv = new Parse({ keys: ["to", "from", "subject", "text", "html", "envelope", "SPF", "dkim", "attachments", "attachment-info", "charsets", "sender_ip", "headers"] }, { body }).keyValues();
    expect(kv.subject).toBe("Grüße — ticket 42 ✓");
    expect(JSON.parse(kv.envelope)).toEqual({ to: ["support@in.example.com"], from: "bounce@sender.example" });
    expect(kv.SPF).toBe("pass");
    expect(kv.dkim).toBe("{@sender.example : pass}");
    expect(kv.attachments).toBe("2");
    const info = JSON.parse(kv["attachment-info"]);
    const key = Object.keys(info).find((k) => info[k].filename === "notes.txt")!;
    expect(info[key]).toMatchObject({ filename: "notes.txt", name: "notes.txt", type: "text/plain" });
    expect(kv.headers).toContain("Subject:");
    expect(await (f.get(key) as File).text()).toBe("attached text");
  });
  test("send_raw posts the whole message as email", async () => {
    const raw = await compose();
    const f = await form(await sendgridParse(env, await parseReceived(raw), raw, { hostname: "h", url: "u", spamCheck: false, sendRaw: true }, null));
    expect(String(f.get("email"))).toContain("notes.txt");
    expect(f.get("text")).toBeNull();
  });
});

describe("SparkPost relay webhooks", () => {
  test("a relay_message batch with the auth token header", async () => {
    const raw = await compose();
    const hook = { id: "w1", name: "n", target: "t", authToken: "secret", matchDomain: "in.example.com", customerId: "1" };
    const post = relayBatch([relayMessage(env, await parseReceived(raw), raw, "support@in.example.com", hook)], hook);
    expect(post.headers["x-messagesystems-webhook-token"]).toBe("secret");
    const [item] = JSON.parse(new TextDecoder().decode(post.body));
    const m = item.msys.relay_message;
    expect(m).toMatchObject({ rcpt_to: "support@in.example.com", msg_from: "bounce@sender.example", friendly_from: "zoe@sender.example", webhook_id: "w1" });
    expect(m.content.subject).toBe("Grüße — ticket 42 ✓");
    expect(m.content.email_rfc822).toContain("Content-Type: multipart/mixed");
    expect(m.content.email_rfc822_is_base64).toBe(false);
  });
});

describe("malformed and partial mail", () => {
  test("garbage still parses to something postable, HTML-only mail gets a text body", async () => {
    const raw = new TextEncoder().encode("Subject: only html\r\nContent-Type: text/html\r\n\r\n<p>Hi &amp; bye</p>");
    const mail = await parseReceived(raw);
    expect(mail.text).toBe("Hi & bye");
    // As a client shows it: the source's indentation and line breaks are not the text's.
    const indented = await parseReceived(new TextEncoder().encode("Content-Type: text/html\r\n\r\n<html>\r\n  <body>\r\n    <p>\r\n      Hi,\r\n      there\r\n    </p>\r\n  </body>\r\n</html>"));
    expect(indented.text).toBe("Hi, there");
    const junk = await parseReceived(new Uint8Array([0xff, 0xfe, 0x00, 0x41]));
    expect(typeof junk.text).toBe("string");
  });
  test("stripReply keeps the whole text when nothing is quoted", () => {
    expect(stripReply("just this")).toEqual({ text: "just this", signature: "" });
  });
});
