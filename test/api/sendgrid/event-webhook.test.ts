// SendGrid's Event Webhook through the official @sendgrid/client: settings round trips, events
// posted without any callback_url (only the switched-on types), signatures verified with
// SendGrid's own @sendgrid/eventwebhook, and the test post.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { EventWebhook, EventWebhookHeader } from "@sendgrid/eventwebhook";
import { startHarness, type SendgridHarness } from "./setup.ts";
import { startReceiver } from "../../helpers/receiver.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let hook: ReturnType<typeof startReceiver>;
beforeAll(async () => {
  h = await startHarness({ toml: "[webhooks]\nallow_private = true\n" });
  hook = startReceiver();
});
afterAll(async () => { hook.stop(); await h.close(); });

const settings = async (method: "GET" | "PATCH", body?: Record<string, unknown>, client = h.client) => {
  const [res, data] = await client.request({ method, url: "/v3/user/webhooks/event/settings", ...(body ? { body } : {}) });
  return { status: res.statusCode, data: data as Record<string, unknown> };
};

/** SendGrid's documented verification: the key as the API gives it, the raw body, both headers. */
function verified(r: { headers: Headers; body: string }, publicKey: string): boolean {
  const ew = new EventWebhook();
  return ew.verifySignature(ew.convertPublicKeyToECDSA(publicKey), r.body, r.headers.get(EventWebhookHeader.SIGNATURE())!,
    r.headers.get(EventWebhookHeader.TIMESTAMP())!);
}

describe("event webhook settings", () => {
  test("read back the defaults, then what PATCH set", async () => {
    const before = await settings("GET");
    expect(before.status).toBe(200);
    expect(before.data).toMatchObject({ enabled: false, url: "", delivered: false, processed: false, bounce: false, spam_report: false });
    const after = await settings("PATCH", { enabled: true, url: hook.url, delivered: true, processed: true, open: true, bounce: false });
    expect(after.status).toBe(200);
    expect(after.data).toMatchObject({ enabled: true, url: hook.url, delivered: true, processed: true, open: true, bounce: false, dropped: false });
    expect((await settings("GET")).data).toEqual(after.data);
  });

  test("refuses bad input in SendGrid's error shape", async () => {
    await expect(h.client.request({ method: "PATCH", url: "/v3/user/webhooks/event/settings", body: { enabled: "yes" } }))
      .rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "enabled" }] } } });
    await expect(h.client.request({ method: "PATCH", url: "/v3/user/webhooks/event/settings", body: { url: "ftp://x.test/" } }))
      .rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "url" }] } } });
  });

  test("signed settings give the public key that verifies the posts", async () => {
    const [res, body] = await h.client.request({ method: "PATCH", url: "/v3/user/webhooks/event/settings/signed", body: { enabled: true } });
    expect(res.statusCode).toBe(200);
    const publicKey = (body as { public_key: string }).public_key;
    const [, again] = await h.client.request({ method: "GET", url: "/v3/user/webhooks/event/settings/signed" });
    expect(again).toEqual({ public_key: publicKey });

    await h.mail.send({ to: "hooked@dest.test", from: "alice@example.com", subject: "events", text: "t", customArgs: { order: "42" } });
    const got = await hook.waitFor((r) => r.flatMap((x) => x.json as Record<string, unknown>[]).some((e) => e.event === "delivered" && e.email === "hooked@dest.test"));
    const events = got.flatMap((x) => x.json as Record<string, unknown>[]).filter((e) => e.email === "hooked@dest.test");
    expect(events.map((e) => e.event).sort()).toEqual(["delivered", "processed"]);
    expect(events[0]).toMatchObject({ order: "42" });
    for (const r of got) expect(verified(r, publicKey)).toBe(true);
    expect(verified({ headers: got[0]!.headers, body: got[0]!.body.replace("42", "43") }, publicKey)).toBe(false);
  });

  test("every event's sg_message_id starts with its send's X-Message-Id, for each personalization (SendGrid's `<id>.filter…`)", async () => {
    const seen = hook.received.length;
    const [res] = await h.mail.send({ from: "alice@example.com", subject: "ids", text: "t",
      personalizations: [{ to: "id-one@dest.test" }, { to: ["id-two@dest.test", "id-three@dest.test"] }] });
    const xMessageId = res.headers["x-message-id"] as string;
    const mine = (r: { json: unknown }[]) => r.slice(seen).flatMap((x) => x.json as Record<string, unknown>[]).filter((e) => String(e.email).startsWith("id-"));
    const got = mine(await hook.waitFor((r) => mine(r).filter((e) => e.event === "delivered").length === 3));
    expect(got.length).toBe(6);
    for (const e of got) expect(String(e.sg_message_id).startsWith(`${xMessageId}.filter`)).toBe(true);
    // One id per recipient: a recipient's processed and delivered events share it, recipients differ.
    expect(new Set(got.map((e) => e.sg_message_id)).size).toBe(3);
  });

  test("a switched-off type is not posted; a disabled webhook gets nothing", async () => {
    await settings("PATCH", { processed: false });
    const seen = hook.received.length;
    await h.mail.send({ to: "only-delivered@dest.test", from: "alice@example.com", subject: "s", text: "t" });
    const got = await hook.waitFor((r) => r.slice(seen).flatMap((x) => x.json as Record<string, unknown>[]).some((e) => e.email === "only-delivered@dest.test"));
    expect(got.slice(seen).flatMap((x) => x.json as Record<string, unknown>[]).filter((e) => e.email === "only-delivered@dest.test").map((e) => e.event)).toEqual(["delivered"]);

    await settings("PATCH", { enabled: false });
    const before = hook.received.length;
    await h.mail.send({ to: "off@dest.test", from: "alice@example.com", subject: "s", text: "t" });
    await h.sink.waitFor(h.sink.messages.filter((m) => !m.to.includes("off@dest.test")).length + 1);
    await Bun.sleep(3_000);
    expect(hook.received.slice(before).flatMap((x) => x.json as Record<string, unknown>[]).filter((e) => e.email === "off@dest.test")).toEqual([]);
  });

  test("the test post reaches the URL given, signed", async () => {
    const other = startReceiver();
    try {
      const [res] = await h.client.request({ method: "POST", url: "/v3/user/webhooks/event/test", body: { url: other.url } });
      expect(res.statusCode).toBe(204);
      const [r] = await other.waitFor((x) => x.length > 0);
      const [, key] = await h.client.request({ method: "GET", url: "/v3/user/webhooks/event/settings/signed" });
      expect(verified(r!, (key as { public_key: string }).public_key)).toBe(true);
      expect(Array.isArray(r!.json)).toBe(true);
    } finally { other.stop(); }
  });
});
