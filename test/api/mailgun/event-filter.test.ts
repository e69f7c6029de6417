// Mailgun's event filters (every documented field, OR / NOT / AND / parentheses, quoted phrases)
// through mailgun.js against a listening postern.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, sendTaggedMails, type MailgunHarness, jsonOf } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
const sent: Record<string, string> = {};
beforeAll(async () => {
  h = await startHarness();
  Object.assign(sent, await sendTaggedMails(h));
});
afterAll(async () => { await h.close(); });

const rcpts = async (q: Record<string, string>) => (await h.mg.events.get("example.com", { event: "accepted", ...q })).items.map((i) => i.recipient).sort();

describe("event filters", () => {
  test("tags, with OR, NOT and AND", async () => {
    expect(await rcpts({ tags: "spring" })).toEqual(["f1@dest.test", "f3@dest.test"]);
    expect(await rcpts({ tags: "newsletter OR receipt" })).toEqual(["f1@dest.test", "f2@dest.test", "f3@dest.test"]);
    expect(await rcpts({ tags: "NOT spring" })).toEqual(["f2@dest.test"]);
    expect(await rcpts({ tags: "receipt AND spring" })).toEqual(["f3@dest.test"]);
    expect(await rcpts({ tags: "receipt spring" })).toEqual(["f3@dest.test"]);
    expect(await rcpts({ tags: "(newsletter OR receipt) AND NOT spring" })).toEqual(["f2@dest.test"]);
  });

  test("subject words and phrases, from, to, recipient", async () => {
    expect(await rcpts({ subject: "receipt" })).toEqual(["f2@dest.test", "f3@dest.test"]);
    expect(await rcpts({ subject: '"spring sale"' })).toEqual(["f1@dest.test"]);
    expect(await rcpts({ from: "shop@example.com" })).toEqual(["f1@dest.test", "f2@dest.test", "f3@dest.test"]);
    expect(await rcpts({ from: "nobody@example.com" })).toEqual([]);
    expect(await rcpts({ to: "f2@dest.test" })).toEqual(["f2@dest.test"]);
    expect(await rcpts({ recipient: "f1@dest.test OR f3@dest.test" })).toEqual(["f1@dest.test", "f3@dest.test"]);
  });

  test("message-id finds a custom Message-ID and postern's own", async () => {
    expect(sent["f2@dest.test"]).toBe("<custom.f2@app.example.com>");
    expect(await rcpts({ "message-id": "custom.f2@app.example.com" })).toEqual(["f2@dest.test"]);
    expect(await rcpts({ "message-id": sent["f1@dest.test"]!.slice(1, -1) })).toEqual(["f1@dest.test"]);
  });

  test("event expressions and severity; an unreadable filter is 400", async () => {
    const all = (await h.mg.events.get("example.com", { tags: "spring", event: "NOT accepted" })).items.map((i) => i.event);
    expect(all.sort()).toEqual(["delivered", "delivered"]);
    expect((await h.mg.events.get("example.com", { severity: "permanent" })).items).toEqual([]);
    const res = await h.call("GET", "/v3/example.com/events?tags=(spring");
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toHaveProperty("message");
  });

  test("paging keeps the filters: one per page walks every match", async () => {
    const first = await h.mg.events.get("example.com", { event: "accepted", tags: "receipt", limit: 1, ascending: "yes" });
    const second = await h.mg.events.get("example.com", { page: first.pages.next!.page });
    const third = await h.mg.events.get("example.com", { page: second.pages.next!.page });
    expect([...first.items, ...second.items].map((i) => i.recipient)).toEqual(["f2@dest.test", "f3@dest.test"]);
    expect(third.items).toEqual([]);
  });
});
