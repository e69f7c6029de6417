// End to end through mailgun.js: a webhook created for permanent_fail receives the hard bounce of
// a message sent with messages.create, signed as Mailgun signs.
import { afterAll, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import Mailgun from "mailgun.js";
import NodeFormData from "form-data";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import { startReceiver } from "../../helpers/receiver.ts";

let t: TestApp;
let sink: Sink;
const receiver = startReceiver();
afterAll(async () => { receiver.stop(); await t?.close(); await sink?.close(); });

test("a hard bounce reaches the permanent_fail webhook with a verifiable signature", async () => {
  sink = await startSink({ script: (rcpt) => (rcpt.startsWith("gone") ? { code: 550, message: "5.1.1 user unknown" } : null) });
  t = await makeTestApp({ toml: `[webhooks]\nallow_private = true\nretry = ["200ms"]\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  const { http } = await t.app.start();
  const mg = new Mailgun(NodeFormData as never).client({ username: "api", key: t.accountKey, url: `http://${http}` });
  await (mg.webhooks.create as (d: string, id: string, url: string) => Promise<unknown>)("example.com", "permanent_fail", receiver.url);
  await mg.messages.create("example.com", { from: "News <news@example.com>", to: ["gone@dest.test"], subject: "hi", text: "hello", "o:tag": ["launch"], "v:user": "42" });
  const [req] = await receiver.waitFor((r) => r.length >= 1, 20_000);
  const body = req!.json as { signature: { timestamp: string; token: string; signature: string }; "event-data": Record<string, any> };
  const key = await t.app.events.keys.forDomain("example.com"); // the domain's own key
  expect(createHmac("sha256", key).update(body.signature.timestamp + body.signature.token).digest("hex")).toBe(body.signature.signature);
  expect(body["event-data"]).toMatchObject({ event: "failed", severity: "permanent", recipient: "gone@dest.test", tags: ["launch"], "user-variables": { user: "42" } });
  expect(body["event-data"]["delivery-status"]).toMatchObject({ code: 550, "enhanced-code": "5.1.1" });
}, 40_000);
