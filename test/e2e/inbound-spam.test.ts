// SendGrid Inbound Parse spam_check end to end: the setting made with @sendgrid/client, mail sent
// by a plain SMTP client, SpamAssassin's verdict from a real spamd in the post (read back with
// @sendgrid/inbound-mail-parser); a spamd that never answers delays the post, never loses it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import nodemailer from "nodemailer";
import Parse from "@sendgrid/inbound-mail-parser";
import { Client } from "@sendgrid/client";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSpamd, type Spamd } from "../helpers/spamd.ts";

const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";
const posts: Record<string, string>[] = [];
let target: ReturnType<typeof Bun.serve>;
let spamd: Spamd;
let hung: Server;
const apps: TestApp[] = [];

beforeAll(async () => {
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) {
    const form = await req.formData();
    posts.push(Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string")));
    return new Response("ok");
  } });
  spamd = await startSpamd();
  hung = createServer(() => {}).listen(0, "127.0.0.1");
}, 90_000);
afterAll(async () => { for (const a of apps) await a.close(); target.stop(true); hung.close(); await spamd.stop(); });

async function appWith(spamdAddress: string, timeout: string) {
  const t = await makeTestApp({ domain: "in.example.com", toml: `[webhooks]\nallow_private = true\nretry = ["200ms"]\n[inbound]\nspamd = "${spamdAddress}"\nspamd_timeout = "${timeout}"\n` });
  apps.push(t);
  const addrs = await t.app.start();
  const client = new Client();
  const warn = console.warn; console.warn = () => {};
  client.setApiKey(t.accountKey); console.warn = warn;
  client.setDefaultRequest("baseUrl", `http://${addrs.http}/`);
  const [created] = await client.request({ method: "POST", url: "/v3/user/webhooks/parse/settings",
    body: { hostname: "parse.in.example.com", url: `http://127.0.0.1:${target.port}/sg`, spam_check: true, send_raw: false } });
  expect(created.statusCode).toBe(201);
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port: Number(addrs.smtp!.split(":").pop()), secure: false, ignoreTLS: true });
  return (subject: string, text: string) => smtp.sendMail({ from: "Zoë <zoe@sender.example>", to: "desk@parse.in.example.com", subject, text,
    envelope: { from: "bounce@sender.example", to: "desk@parse.in.example.com" } });
}

async function postWith(subject: string, ms = 40_000) {
  const end = Date.now() + ms;
  for (;;) {
    const body = posts.find((p) => p.subject === subject);
    if (body) return new Parse({ keys: ["subject", "spam_score", "spam_report", "text", "envelope"] }, { body }).keyValues();
    if (Date.now() > end) throw new Error(`no post with subject ${subject}`);
    await Bun.sleep(50);
  }
}

describe("Inbound Parse spam_check", () => {
  test("spam_score and spam_report come from SpamAssassin", async () => {
    const send = await appWith(spamd.address, "30s");
    await send("quiet one", "Hello, see you tomorrow.");
    await send("gtube one", GTUBE);
    const ham = await postWith("quiet one");
    expect(Number(ham.spam_score)).toBeLessThan(5);
    expect(ham.spam_report).toContain("Content analysis details:");
    const spam = await postWith("gtube one");
    expect(Number(spam.spam_score)).toBeGreaterThanOrEqual(999);
    expect(spam.spam_report).toContain("GTUBE");
  }, 90_000);

  test("a spamd that never answers: the post goes after the timeout, without a score", async () => {
    const send = await appWith(`127.0.0.1:${(hung.address() as { port: number }).port}`, "1s");
    await send("unscored one", "Hello again.");
    const kv = await postWith("unscored one", 20_000);
    expect(kv.text?.trim()).toBe("Hello again.");
    expect(kv.spam_score).toBeUndefined();
    expect(kv.spam_report).toBeUndefined();
  }, 30_000);
});
