// Mailgun's unsubscribe variables in a message body: %unsubscribe_url%, %mailing_list_unsubscribe_url%
// and %tag_unsubscribe_url% are substituted per recipient; the tag link unsubscribes only from the
// message's tags (a later message with another tag is still delivered).
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import PostalMime from "postal-mime";
import { startHarness, eventually, type MailgunHarness } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
beforeAll(async () => {
  h = await startHarness();
  await h.mg.domains.domainTracking.updateTracking("example.com", "unsubscribe", { active: true } as never);
});
afterAll(async () => { await h.close(); });

async function textFor(rcpt: string, subject: string): Promise<string> {
  const find = () => h.sink.messages.find((m) => m.to.includes(rcpt) && m.raw.toString().includes(`Subject: ${subject}`))?.raw;
  await eventually(async () => find() !== undefined);
  return (await PostalMime.parse(find()!)).text ?? "";
}

const statusOf = async (rcpt: string, subject: string) => {
  const events = await h.t.app.activity.events("example.com", { recipient: rcpt, limit: 50 });
  const ids = new Set((await Promise.all(events.map((e) => h.t.app.activity.message("example.com", e.messageId))))
    .filter((f) => f?.message.subject === subject).map((f) => f!.message.id));
  return events.filter((e) => ids.has(e.messageId)).map((e) => e.type).sort();
};

describe("unsubscribe variables", () => {
  test("are substituted, and the tag link suppresses only the message's tags", async () => {
    await h.mg.messages.create("example.com", { from: "news@example.com", to: "reader@dest.test", subject: "promo 1", "o:tag": "promo",
      text: "tag:%tag_unsubscribe_url% list:%mailing_list_unsubscribe_url% all:%unsubscribe_url%" });
    const text = await textFor("reader@dest.test", "promo 1");
    expect(text).not.toContain("%");
    const urls = Object.fromEntries([...text.matchAll(/(\w+):(http\S+)/g)].map((m) => [m[1], m[2]]));
    expect(Object.keys(urls).sort()).toEqual(["all", "list", "tag"]);
    expect(urls.tag).not.toBe(urls.all);

    const res = await h.t.app.http(new Request(urls.tag!, { method: "POST" }));
    expect(res.status).toBe(200);
    const entry = await h.t.app.suppressions.get("example.com", "unsubscribes", "reader@dest.test");
    expect(entry).toMatchObject({ code: "promo" });

    await h.mg.messages.create("example.com", { from: "news@example.com", to: "reader@dest.test", subject: "promo 2", "o:tag": "promo", text: "x" });
    await h.mg.messages.create("example.com", { from: "news@example.com", to: "reader@dest.test", subject: "receipt 1", "o:tag": "receipt", text: "x" });
    expect(await textFor("reader@dest.test", "receipt 1")).toContain("x");
    expect(await statusOf("reader@dest.test", "promo 2")).toEqual(["failed"]);
  });
});
