import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, type MailgunHarness } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
// mailgun.js types ids as its WebhooksIds enum and `url` as one string, but sends any id and an
// array of urls as repeated fields; this view of the client says so.
interface WebhookView { id: string; url?: string; urls?: string[] }
interface LooseWebhooks {
  create(d: string, id: string, url: string | string[]): Promise<WebhookView>;
  get(d: string, id: string): Promise<WebhookView>;
  update(d: string, id: string, url: string | string[]): Promise<WebhookView>;
  destroy(d: string, id: string): Promise<WebhookView>;
  list(d: string, q: object): Promise<Record<string, { urls: string[] }>>;
}
let hooks: LooseWebhooks;
beforeAll(async () => { h = await startHarness(); hooks = h.mg.webhooks as unknown as LooseWebhooks; });
afterAll(async () => { await h.close(); });

const stored = async () => (await h.t.app.webhooks.list(null)).map((w) => ({ events: w.events, url: w.url, format: w.format, extra: w.extra }));

describe("webhooks through mailgun.js", () => {
  test("create stores one mailgun target per url with the native event and the Mailgun id", async () => {
    const created = await hooks.create("example.com", "permanent_fail", ["https://hooks.test/a", "https://hooks.test/b"]);
    expect(created).toEqual({ id: "permanent_fail", url: "https://hooks.test/a", urls: ["https://hooks.test/a", "https://hooks.test/b"] });
    expect(await stored()).toEqual([
      { events: ["failed"], url: "https://hooks.test/a", format: "mailgun", extra: { mailgunId: "permanent_fail" } },
      { events: ["failed"], url: "https://hooks.test/b", format: "mailgun", extra: { mailgunId: "permanent_fail" } },
    ]);
    const temp = await hooks.create("example.com", "temporary_fail", "https://hooks.test/t");
    expect(temp.urls).toEqual(["https://hooks.test/t"]);
    expect((await stored()).find((w) => w.url === "https://hooks.test/t")!.events).toEqual(["deferred"]);
  });

  test("the SDK's `unsubscribe` id is the unsubscribed webhook", async () => {
    await hooks.create("example.com", "unsubscribe", "https://hooks.test/u");
    expect((await stored()).find((w) => w.url === "https://hooks.test/u")).toMatchObject({ events: ["unsubscribed"], extra: { mailgunId: "unsubscribed" } });
    expect((await hooks.get("example.com", "unsubscribed")).urls).toEqual(["https://hooks.test/u"]);
  });

  test("list, get, update and destroy", async () => {
    await hooks.create("example.com", "opened", "https://hooks.test/o");
    const list = await hooks.list("example.com", {});
    expect(list).toEqual({
      permanent_fail: { urls: ["https://hooks.test/a", "https://hooks.test/b"] }, temporary_fail: { urls: ["https://hooks.test/t"] },
      unsubscribed: { urls: ["https://hooks.test/u"] }, opened: { urls: ["https://hooks.test/o"] },
    });
    expect(await hooks.get("example.com", "opened")).toEqual({ id: "opened", url: "https://hooks.test/o", urls: ["https://hooks.test/o"] });
    const updated = await hooks.update("example.com", "opened", ["https://hooks.test/o2", "https://hooks.test/o3"]);
    expect(updated.urls).toEqual(["https://hooks.test/o2", "https://hooks.test/o3"]);
    expect((await stored()).filter((w) => w.extra.mailgunId === "opened").map((w) => w.url).sort()).toEqual(["https://hooks.test/o2", "https://hooks.test/o3"]);
    const gone = await hooks.destroy("example.com", "opened");
    expect(gone.urls).toEqual(["https://hooks.test/o2", "https://hooks.test/o3"]);
    expect((await hooks.get("example.com", "opened").catch((e) => e)).status).toBe(404);
  });

  test("refuses unknown ids, a second create, more than 3 urls and non-http urls with 400", async () => {
    const cases = [
      () => hooks.create("example.com", "exploded", "https://hooks.test/x"),
      () => hooks.create("example.com", "permanent_fail", "https://hooks.test/again"),
      () => hooks.create("example.com", "clicked", ["https://a.test/1", "https://a.test/2", "https://a.test/3", "https://a.test/4"]),
      () => hooks.create("example.com", "clicked", "ftp://hooks.test/x"),
    ];
    for (const call of cases) expect((await call().catch((e) => e)).status).toBe(400);
    expect((await hooks.update("example.com", "delivered", "https://hooks.test/d").catch((e) => e)).status).toBe(404);
  });
});
