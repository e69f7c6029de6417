// tracking_settings.subscription_tracking: SendGrid's unsubscribe footer (or its substitution_tag)
// carries each recipient's own unsubscribe link, which unsubscribes on POST.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import PostalMime from "postal-mime";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";

let t: TestApp;
let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ publicUrl: "https://track.example.com", toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  await t.app.mta.scheduler.start();
});
afterAll(async () => { await t.close(); await sink.close(); });

const send = (body: unknown) => t.app.http(new Request("http://127.0.0.1/v3/mail/send", { method: "POST", body: JSON.stringify(body),
  headers: { authorization: `Bearer ${t.domainKey}`, "content-type": "application/json" } }));
const mail = (to: string, tracking: unknown, html = "<html><body><p>Hello</p></body></html>") => ({
  personalizations: [{ to: [{ email: to }] }], from: { email: "news@example.com" }, subject: "s",
  content: [{ type: "text/plain", value: "Hello [unsub]" }, { type: "text/html", value: html }], tracking_settings: tracking,
});
async function received(to: string) {
  for (let i = 0; i < 200 && !sink.messages.some((m) => m.to.includes(to)); i++) await Bun.sleep(25);
  return PostalMime.parse(sink.messages.find((m) => m.to.includes(to))!.raw);
}

describe("subscription_tracking", () => {
  test("adds SendGrid's footer with the recipient's own unsubscribe link, which works on POST", async () => {
    expect((await send(mail("footer@dest.test", { subscription_tracking: { enable: true } }))).status).toBe(202);
    const got = await received("footer@dest.test");
    const link = /href="https:\/\/track\.example\.com(\/t\/u\/[^"]+)">click here<\/a>/.exec(got.html ?? "");
    expect(link).not.toBeNull();
    expect(got.text).toContain("click here: https://track.example.com/t/u/");
    const res = await t.app.http(new Request(`http://127.0.0.1${link![1]}`, { method: "POST", body: "List-Unsubscribe=One-Click" }));
    expect(res.status).toBe(200);
    expect(await t.app.suppressions.get("example.com", "unsubscribes", "footer@dest.test")).not.toBeNull();
  });

  test("puts the link where substitution_tag stands instead of adding a footer", async () => {
    expect((await send(mail("tag@dest.test", { subscription_tracking: { enable: true, substitution_tag: "[unsub]" } }))).status).toBe(202);
    const got = await received("tag@dest.test");
    expect(got.text?.trim()).toStartWith("Hello https://track.example.com/t/u/");
    expect(got.html).not.toContain("click here");
  });
});
