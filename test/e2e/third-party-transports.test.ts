// Third-party libraries applications really send with (nodemailer's transports for each vendor),
// pointed at postern by base address and key only: the mail must arrive at a local SMTP sink
// DKIM-signed (verified with mailauth), with the custom Message-ID and Sender they set.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import PostalMime from "postal-mime";
import mailgunTransport from "nodemailer-mailgun-transport";
import sparkPostTransport from "nodemailer-sparkpost-transport";
import sendgridTransport from "nodemailer-sendgrid";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

setDefaultTimeout(60_000);
let t: TestApp;
let sink: Sink;
let base: string;
beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  base = `http://${(await t.app.start()).http}`;
});
afterAll(async () => { await t.close(); await sink.close(); });

const resolver = async (name: string, rr: string) => {
  const hit = (await t.app.domains.records("example.com")).filter((r) => r.type === rr && r.name === name).map((r) => [r.value]);
  if (!hit.length) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return hit;
};

/** The message the sink got for `rcpt`, parsed, once its DKIM signatures are checked. */
async function arrived(rcpt: string) {
  const deadline = Date.now() + 20_000;
  let raw = sink.messages.find((m) => m.to.includes(rcpt))?.raw;
  while (!raw && Date.now() < deadline) {
    await Bun.sleep(50);
    raw = sink.messages.find((m) => m.to.includes(rcpt))?.raw;
  }
  if (!raw) throw new Error(`nothing arrived for ${rcpt}`);
  const dkim = await dkimVerify(raw, { resolver: resolver as never });
  expect(dkim.results.map((r) => [r.signingDomain, r.status.result])).toEqual([["example.com", "pass"], ["example.com", "pass"]]);
  return PostalMime.parse(raw);
}

const senderOf = (m: Awaited<ReturnType<typeof PostalMime.parse>>) => m.headers.find((h) => h.key === "sender")?.value;

const mail = (to: string, extra: Record<string, unknown> = {}) => ({
  from: "Alice <alice@example.com>", to, subject: `Through ${to}`, text: "plain body", html: "<p>html body</p>",
  messageId: `<${to.split("@")[0]}.custom@app.example.com>`, ...extra,
});

describe("nodemailer transports through postern", () => {
  test("nodemailer-sendgrid (it always sends the Message-ID nodemailer made)", async () => {
    // The transport brings its own @sendgrid/mail 6: point that copy's client at postern.
    const sgMail = createRequire(require.resolve("nodemailer-sendgrid"))("@sendgrid/mail");
    const transporter = nodemailer.createTransport(sendgridTransport({ apiKey: t.domainKey }));
    sgMail.client.setDefaultRequest("baseUrl", base);
    // nodemailer makes the Message-ID (<uuid@example.com>, from the From domain) and the transport
    // adds it to the mail's headers (with nodemailer 10 only when the mail has headers of its own).
    const { messageId: _, ...own } = mail("sg@dest.test", { headers: { Sender: "bulk@example.com" } });
    await transporter.sendMail(own);
    const got = await arrived("sg@dest.test");
    expect(got.messageId).toMatch(/^<[0-9a-f-]{36}@example\.com>$/);
    expect(senderOf(got)).toBe("bulk@example.com");
    expect(got.text?.trim()).toBe("plain body");
  });

  test("nodemailer-mailgun-transport", async () => {
    const transporter = nodemailer.createTransport(mailgunTransport({ auth: { api_key: t.domainKey, domain: "example.com" }, url: base }));
    const info = await transporter.sendMail(mail("mg@dest.test", { sender: "news@example.com", "h:Sender": "news@example.com", "h:Message-Id": "<mg.custom@app.example.com>" }));
    expect(info.id).toBe("<mg.custom@app.example.com>");
    const got = await arrived("mg@dest.test");
    expect(got.messageId).toBe("<mg.custom@app.example.com>");
    expect(senderOf(got)).toBe("news@example.com");
    expect(got.html).toContain("<p>html body</p>");
  });

  test("nodemailer-sparkpost-transport", async () => {
    const transporter = nodemailer.createTransport(sparkPostTransport({ sparkPostApiKey: t.domainKey, endpoint: base }));
    const info = await transporter.sendMail(mail("sp@dest.test", { headers: { "Message-ID": "<sp.custom@app.example.com>", Sender: "ops@example.com" } }));
    expect(info).toMatchObject({ accepted: 1, rejected: 0 });
    const got = await arrived("sp@dest.test");
    expect(got.messageId).toBe("<sp.custom@app.example.com>");
    expect(senderOf(got)).toBe("ops@example.com");
  });
});
