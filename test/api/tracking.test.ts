import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import PostalMime from "postal-mime";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp;
let sink: Sink;
let principal: Principal;
/** Moves the app's clock forward: a person reads mail minutes after delivery, not milliseconds. */
let skewMs = 0;
const HUMAN_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ now: () => Date.now() + skewMs, publicUrl: "https://track.example.com", toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  await t.app.mta.scheduler.start();
  principal = (await t.app.access.authenticate(t.domainKey))!;
});
afterAll(async () => { await t.close(); await sink.close(); });

/** Sends a tracked HTML message and returns the links found in what the recipient got. */
async function sendTracked(to: string) {
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "native", from: { email: "a@example.com" }, tracking: { opens: true, clicks: true, unsubscribe: true },
    envelopes: [{ to: [{ email: to }], subject: "s", html: `<html><body><p>Hi</p><a href="https://shop.example/sale?a=1&amp;b=2">Sale</a></body></html>` }] });
  const msg = (await sink.waitFor(before + 1))[before]!;
  const parsed = await PostalMime.parse(msg.raw);
  const html = parsed.html ?? "";
  const pick = (re: RegExp) => new URL(re.exec(html)![1]!).pathname;
  const unsub = /<(http[^>]+\/t\/u\/[^>]+)>/.exec(parsed.headers.find((h) => h.key === "list-unsubscribe")!.value)![1]!;
  return { open: pick(/background="([^"]+\/t\/o\/[^"]+)"/), click: pick(/href="([^"]+\/t\/c\/[^"]+)"/), honeypot: pick(/href="([^"]+\/hclick)"/),
    unsubscribe: new URL(unsub).pathname, headers: parsed.headers };
}

const hit = (path: string, init: RequestInit & { ip?: string; ua?: string } = {}) =>
  t.app.http(new Request(`http://127.0.0.1${path}`, { ...init, headers: { "user-agent": init.ua ?? HUMAN_UA, ...(init.headers ?? {}) } }), init.ip ?? "198.51.100.20");
const events = async (rcpt: string) => {
  await Bun.sleep(30);
  return t.app.activity.events("example.com", { recipient: rcpt, limit: 50, ascending: true });
};

describe("tracking", () => {
  test("the open pixel answers a GIF and records an opened event", async () => {
    const links = await sendTracked("open@dest.test");
    const res = await hit(links.open);
    expect(res.headers.get("content-type")).toBe("image/gif");
    expect((await events("open@dest.test")).map((e) => e.type)).toContain("opened");
  });

  test("a click redirects to the original URL and records the URL", async () => {
    const links = await sendTracked("click@dest.test");
    const res = await hit(links.click);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://shop.example/sale?a=1&b=2");
    expect((await events("click@dest.test")).find((e) => e.type === "clicked")?.url).toBe("https://shop.example/sale?a=1&b=2");
  });

  test("a tampered or foreign click token gets 404, never a redirect", async () => {
    const links = await sendTracked("tamper@dest.test");
    const token = links.click.split("/").pop()!;
    const flipped = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    expect((await hit(`/t/c/${flipped}`)).status).toBe(404);
    expect((await hit(`/t/c/${token}x`)).status).toBe(404);
    expect((await hit(`/t/o/${token}`)).status).toBe(404);
  });

  test("non-transactional mail carries RFC 8058 one-click headers", async () => {
    const links = await sendTracked("headers@dest.test");
    expect(links.headers.find((h) => h.key === "list-unsubscribe-post")?.value).toBe("List-Unsubscribe=One-Click");
  });

  test("a GET on the unsubscribe link only shows a confirmation; the one-click POST unsubscribes and suppresses", async () => {
    const links = await sendTracked("unsub@dest.test");
    const page = await hit(links.unsubscribe);
    expect(await page.text()).toContain("<form method=\"post\">");
    expect((await events("unsub@dest.test")).map((e) => e.type)).not.toContain("unsubscribed");
    const post = await hit(links.unsubscribe, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(post.status).toBe(200);
    expect((await events("unsub@dest.test")).map((e) => e.type)).toContain("unsubscribed");
    expect(await t.app.suppressions.get("example.com", "unsubscribes", "unsub@dest.test")).not.toBeNull();
  });

  test("a visitor of the honeypot link is a bot on its next click, also via the email.{domain} host", async () => {
    const links = await sendTracked("honey@dest.test");
    expect((await hit(links.honeypot, { ip: "203.0.113.77" })).status).toBe(200);
    await hit(links.click, { ip: "203.0.113.77" });
    const clicked = (await events("honey@dest.test")).find((e) => e.type === "clicked")!;
    expect(clicked.isBot).toBe(true);
    const viaHost = await t.app.http(new Request(`http://email.example.com/anyid/hclick`, { headers: { host: "email.example.com", "user-agent": "scanner" } }), "203.0.113.78");
    expect(viaHost.status).toBe(200);
  });

  test("a person's open from a normal browser is not a bot", async () => {
    const links = await sendTracked("person@dest.test");
    await Bun.sleep(50);
    skewMs += 10 * 60_000;
    await hit(links.open, { ip: "198.51.100.99" });
    const opened = (await events("person@dest.test")).find((e) => e.type === "opened")!;
    expect(opened.isBot).toBe(false);
  });
});
