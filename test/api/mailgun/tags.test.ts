// Mailgun's tags API with tag stats, through mailgun.js against a listening postern (the mails
// of the event filter tests give the tags).
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, sendTaggedMails, type MailgunHarness, jsonOf } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
beforeAll(async () => {
  h = await startHarness();
  await sendTaggedMails(h);
});
afterAll(async () => { await h.close(); });


describe("tags API", () => {
  test("lists the tags events carry; get, update description, stats, delete", async () => {
    const list = await h.mg.domains.domainTags.list("example.com");
    expect(list.items.map((t) => t.tag)).toEqual(["newsletter", "receipt", "spring"]);
    expect(list.items[0]!["first-seen"]).toBeInstanceOf(Date);
    await h.mg.domains.domainTags.update("example.com", "spring", "the spring campaign");
    expect(await h.mg.domains.domainTags.get("example.com", "spring")).toMatchObject({ tag: "spring", description: "the spring campaign" });
    const stats = await h.mg.domains.domainTags.statistic("example.com", "spring", { event: "accepted,delivered" });
    const total = (k: "accepted" | "delivered") => stats.stats.reduce((n, s) => n + (s[k]?.total ?? 0), 0);
    expect([total("accepted"), total("delivered")]).toEqual([2, 2]);
    expect(stats.tag).toBe("spring");
    await h.mg.domains.domainTags.destroy("example.com", "newsletter");
    expect((await h.mg.domains.domainTags.list("example.com")).items.map((t) => t.tag)).toEqual(["receipt", "spring"]);
    await expect(h.mg.domains.domainTags.get("example.com", "newsletter")).rejects.toMatchObject({ status: 404 });
  });

  test("pages by tag name", async () => {
    const first = await jsonOf(await h.call("GET", "/v3/example.com/tags?limit=1"));
    expect(first.items.map((t: { tag: string }) => t.tag)).toEqual(["receipt"]);
    const res = await h.call("GET", `/v3/example.com/tags?limit=1&page=next&tag=receipt`);
    expect((await jsonOf(res)).items.map((t: { tag: string }) => t.tag)).toEqual(["spring"]);
  });
});
