// Receiving mail end to end: routes configured with each vendor's official client, a real SMTP
// client sending into the listener, and local targets receiving each vendor's format.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import nodemailer from "nodemailer";
import NodeFormData from "form-data";
import Mailgun from "mailgun.js";
import SparkPost from "sparkpost";
import { Client } from "@sendgrid/client";
import Parse from "@sendgrid/inbound-mail-parser";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

interface Post { path: string; headers: Headers; bytes: Uint8Array; form?: { get(name: string): any }; json?: unknown }

function startTarget() {
  const posts: Post[] = [];
  let status = 200;
  const server = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    async fetch(req) {
      const bytes = new Uint8Array(await req.arrayBuffer());
      const type = req.headers.get("content-type") ?? "";
      const again = () => new Request("http://x/", { method: "POST", body: bytes, headers: { "content-type": type } });
      const post: Post = { path: new URL(req.url).pathname, headers: req.headers, bytes };
      if (type.includes("json")) post.json = JSON.parse(new TextDecoder().decode(bytes));
      else post.form = await again().formData();
      posts.push(post);
      return new Response("ok", { status });
    },
  });
  return {
    base: `http://127.0.0.1:${server.port}`, posts, setStatus: (s: number) => { status = s; },
    async waitFor(pred: (p: Post[]) => boolean, ms = 15_000) {
      const end = Date.now() + ms;
      while (!pred(posts)) { if (Date.now() > end) throw new Error(`target: got ${posts.length} posts`); await Bun.sleep(25); }
      return posts;
    },
    stop: () => server.stop(true),
  };
}

let t: TestApp;
let sink: Sink;
let target: ReturnType<typeof startTarget>;
let smtpPort = 0;
let http = "";

beforeAll(async () => {
  sink = await startSink();
  target = startTarget();
  t = await makeTestApp({ domain: "in.example.com", toml: `[webhooks]\nallow_private = true\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  await t.app.domains.add("other.example");
  await t.app.domains.verify("other.example", true);
  const addrs = await t.app.start();
  http = addrs.http!;
  smtpPort = Number(addrs.smtp!.split(":").pop());
});
afterAll(async () => { await t.close(); await sink.close(); target.stop(); });

const smtp = () => nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true });
const mail = (to: string, extra: Record<string, unknown> = {}) => smtp().sendMail({
  from: "Zoë <zoe@sender.example>", to, subject: "Grüße ✓ ticket", text: "Hello\n-- \nZoë", html: "<p>Hello</p>",
  attachments: [{ filename: "notes.txt", content: "attached" }], envelope: { from: "bounce@sender.example", to }, ...extra,
});

describe("inbound mail", () => {
  test("mail for a domain without inbound, or a foreign domain, is refused at RCPT", async () => {
    await expect(mail("someone@other.example")).rejects.toThrow(/550|554|relay/i);
    await expect(mail("someone@nowhere.example")).rejects.toThrow(/554|relay/i);
  });

  test("Mailgun routes through mailgun.js: priorities, stop(), catch_all(), signed parsed posts, store() with a retrievable URL", async () => {
    await t.app.domains.set("in.example.com", { inbound: true });
    const mg = new Mailgun(NodeFormData as never).client({ username: "api", key: t.accountKey, url: `http://${http}` });
    await mg.routes.create({ priority: 0, description: "support", expression: `match_recipient("^support@in\\.example\\.com$")`,
      action: [`forward("${target.base}/mg/support")`, `store(notify="${target.base}/mg/stored")`, "stop()"] });
    await mg.routes.create({ priority: 5, description: "never reached for support", expression: `match_recipient(".*@in.example.com")`, action: [`forward("${target.base}/mg/any")`] });
    await mg.routes.create({ priority: 9, description: "catch all", expression: "catch_all()", action: [`forward("${target.base}/mg/catchall")`] });
    expect((await mg.routes.list({})).map((r) => r.priority)).toEqual([0, 5, 9]);

    await mail("support@in.example.com");
    const posts = await target.waitFor((p) => p.some((x) => x.path === "/mg/support") && p.some((x) => x.path === "/mg/stored"));
    expect(posts.some((p) => p.path === "/mg/any" || p.path === "/mg/catchall")).toBe(false);
    const f = posts.find((p) => p.path === "/mg/support")!.form!;
    expect(f.get("recipient")).toBe("support@in.example.com");
    expect(f.get("sender")).toBe("bounce@sender.example");
    expect(f.get("subject")).toBe("Grüße ✓ ticket");
    expect(f.get("attachment-count")).toBe("1");
    expect(await (f.get("attachment-1") as File).text()).toBe("attached");
    expect(String(f.get("stripped-text")).trim()).toBe("Hello");
    const account = await t.app.store.control.getAccount();
    expect(createHmac("sha256", account!.webhookSigningKey).update(`${f.get("timestamp")}${f.get("token")}`).digest("hex")).toBe(String(f.get("signature")));

    const stored = posts.find((p) => p.path === "/mg/stored")!.form!;
    const url = String(stored.get("message-url"));
    const auth = { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` };
    const res = await fetch(url.replace("http://127.0.0.1:8025", `http://${http}`), { headers: auth });
    expect(res.status).toBe(200);
    expect((await res.json() as Record<string, string>).subject).toBe("Grüße ✓ ticket");
    const other = await t.app.access.createKey({ kind: "domain", domain: "other.example" });
    expect((await fetch(url.replace("http://127.0.0.1:8025", `http://${http}`), { headers: { authorization: `Basic ${btoa(`api:${other.key}`)}` } })).status).toBe(403);

    await mail("sales@in.example.com");
    await target.waitFor((p) => p.some((x) => x.path === "/mg/any"));
    await mail("x@in.example.com", { to: "x@in.example.com" });
    expect(target.posts.some((p) => p.path === "/mg/catchall")).toBe(false);
  });

  test("SendGrid Inbound Parse through @sendgrid/client: parsed and raw posts", async () => {
    const client = new Client();
    const warn = console.warn; console.warn = () => {};
    client.setApiKey(t.accountKey); console.warn = warn;
    client.setDefaultRequest("baseUrl", `http://${http}/`);
    const [created] = await client.request({ method: "POST", url: "/v3/user/webhooks/parse/settings",
      body: { hostname: "parse.in.example.com", url: `${target.base}/sg`, spam_check: false, send_raw: false } });
    expect(created.statusCode).toBe(201);
    const [list] = await client.request({ method: "GET", url: "/v3/user/webhooks/parse/settings" });
    expect((list.body as { result: { hostname: string }[] }).result.map((r) => r.hostname)).toContain("parse.in.example.com");
    await mail("anyone@parse.in.example.com");
    const f = (await target.waitFor((p) => p.some((x) => x.path === "/sg"))).find((p) => p.path === "/sg")!.form!;
    // Read as a SendGrid app reads it: @sendgrid/inbound-mail-parser over the posted fields.
    const body = Object.fromEntries([...(f as FormData).entries()].filter((e): e is [string, string] => typeof e[1] === "string"));
    const kv = new Parse({ keys: ["subject", "envelope", "attachments", "attachment-info", "from", "text", "html", "SPF", "dkim"] }, { body }).keyValues();
    expect(kv.subject).toBe("Grüße ✓ ticket");
    expect(JSON.parse(kv.envelope)).toEqual({ to: ["anyone@parse.in.example.com"], from: "bounce@sender.example" });
    expect(kv.attachments).toBe("1");
    expect(Object.values(JSON.parse(kv["attachment-info"]) as { filename: string }[])[0]!.filename).toBe("notes.txt");
    expect(kv.from).toContain("zoe@sender.example");
    expect(kv.text.trim()).toStartWith("Hello");
    expect(f.get("spam_score")).toBeNull(); // spam_check is off

    await client.request({ method: "PATCH", url: "/v3/user/webhooks/parse/settings/parse.in.example.com", body: { send_raw: true, url: `${target.base}/sgraw` } });
    await mail("anyone@parse.in.example.com");
    const raw = (await target.waitFor((p) => p.some((x) => x.path === "/sgraw"))).find((p) => p.path === "/sgraw")!.form!;
    expect(String(raw.get("email"))).toContain("notes.txt");
    const [del] = await client.request({ method: "DELETE", url: "/v3/user/webhooks/parse/settings/parse.in.example.com" });
    expect(del.statusCode).toBe(204);
    await expect(mail("anyone@parse.in.example.com")).rejects.toThrow();
  });

  test("SparkPost inbound domains and relay webhooks through the sparkpost client", async () => {
    const sp = new SparkPost(t.accountKey, { origin: `http://${http}` });
    await sp.inboundDomains.create({ domain: "relay.in.example.com" });
    const { results } = await sp.relayWebhooks.create({ name: "replies", target: `${target.base}/sp`, auth_token: "tok-123", match: { protocol: "SMTP", domain: "relay.in.example.com" } });
    expect((await sp.relayWebhooks.get(results.id)).results.match.domain).toBe("relay.in.example.com");
    await mail("reply+42@relay.in.example.com");
    const post = (await target.waitFor((p) => p.some((x) => x.path === "/sp"))).find((p) => p.path === "/sp")!;
    expect(post.headers.get("x-messagesystems-webhook-token")).toBe("tok-123");
    const m = (post.json as { msys: { relay_message: Record<string, unknown> } }[])[0]!.msys.relay_message;
    expect(m).toMatchObject({ rcpt_to: "reply+42@relay.in.example.com", msg_from: "bounce@sender.example", webhook_id: results.id });
    expect((m.content as { subject: string }).subject).toBe("Grüße ✓ ticket");
    await expect(sp.inboundDomains.delete("relay.in.example.com")).rejects.toThrow();
  });

  test("a forward to an address goes out through the MTA, DKIM-signed by the receiving domain", async () => {
    const mg = new Mailgun(NodeFormData as never).client({ username: "api", key: t.accountKey, url: `http://${http}` });
    await mg.routes.create({ priority: 1, description: "fwd", expression: `match_recipient("^fwd@in\\.example\\.com$")`, action: [`forward("ops@team.example")`, "stop()"] });
    await mail("fwd@in.example.com");
    const got = (await sink.waitFor(1)).find((x) => x.to.includes("ops@team.example"))!;
    const raw = got.raw.toString("utf8");
    expect(raw).toContain("DKIM-Signature:");
    expect(raw).toContain("d=in.example.com");
    expect(raw).toMatch(/From: .*<fwd@in\.example\.com>/);
    expect(raw).toMatch(/Reply-To: .*<zoe@sender\.example>/);
    expect(raw).not.toContain("Received-SPF");
    const from = /^From: (.*)$/m.exec(raw)![1]!;
    expect(from).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+\/=]+\?= <fwd@in\.example\.com>$/);
    expect(Buffer.from(/B\?([^?]+)\?=/.exec(from)![1]!, "base64").toString()).toBe("Zoë via in.example.com");
  });
  test("a received message over the report cap arrives whole (only reports are cut)", async () => {
    const big = "0123456789abcdef".repeat(160 * 1024); // 2.5 MiB, past [smtp] max_report_size
    await smtp().sendMail({ from: "a@sender.example", to: "sales@in.example.com", subject: "big one", text: "see attachment",
      attachments: [{ filename: "big.txt", content: big }], envelope: { from: "a@sender.example", to: "sales@in.example.com" } });
    const post = (await target.waitFor((p) => p.some((x) => x.path === "/mg/any" && x.form?.get("subject") === "big one")))
      .find((x) => x.path === "/mg/any" && x.form?.get("subject") === "big one")!;
    expect((await (post.form!.get("attachment-1") as File).text()).length).toBe(big.length);
  }, 60_000);
});
