// /v3/lists with the official mailgun.js client: lists, members with vars and subscribed flags,
// JSON and CSV bulk uploads, access levels; a send to the list address reaches every subscribed
// member with their %recipient.*% vars and a %mailing_list_unsubscribe_url% that really
// unsubscribes them; another domain's sending key cannot use the list.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, failure, receivedBy, jsonOf, startHarness, type MailgunHarness } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
let otherKey: string;
beforeAll(async () => {
  h = await startHarness();
  await h.t.app.domains.add("other.test");
  await h.t.app.domains.verify("other.test", true);
  otherKey = (await h.t.app.access.createKey({ kind: "domain", domain: "other.test" })).key;
});
afterAll(async () => { await h.close(); });

const L = () => h.mg.lists;
const received = (rcpt: string) => receivedBy(h, rcpt);

describe("mailing lists", () => {
  test("create, get, update, list pages, delete", async () => {
    const created = await L().create({ address: "News@example.com", name: "News", description: "d", access_level: "members", reply_preference: "sender" } as never);
    expect(created).toMatchObject({ address: "news@example.com", name: "News", description: "d", access_level: "members", reply_preference: "sender", members_count: 0 });
    expect(await L().get("news@example.com")).toMatchObject({ address: "news@example.com", access_level: "members" });
    const updated = await L().update("news@example.com", { description: "changed", access_level: "everyone" } as never);
    expect(updated).toMatchObject({ description: "changed", access_level: "everyone" });
    await L().create({ address: "second@example.com" } as never);
    const page = await L().list({ limit: 1 });
    expect(page.items.map((l: any) => l.address)).toEqual(["news@example.com"]);
    const bad = await failure(L().create({ address: "x@example.com", access_level: "god" } as never));
    expect(bad.status).toBe(400);
    const foreign = await failure(L().create({ address: "x@nowhere.test" } as never));
    expect(foreign.status).toBe(400);
    const removed = await L().destroy("second@example.com");
    expect(removed).toMatchObject({ address: "second@example.com", message: "Mailing list has been removed" });
    expect((await failure(L().get("second@example.com"))).status).toBe(404);
  });

  test("members: one by one with vars, JSON and CSV bulk, subscribed flags, update, delete", async () => {
    await L().create({ address: "club@example.com" } as never);
    const m = await h.mg.lists.members.createMember("club@example.com", { address: "Ann <ann@dest.test>", vars: { tier: "gold" }, subscribed: true } as never);
    expect(m).toEqual({ address: "ann@dest.test", name: "Ann", subscribed: true, vars: { tier: "gold" } });
    const dup = await failure(h.mg.lists.members.createMember("club@example.com", { address: "ann@dest.test" } as never));
    expect(dup.status).toBe(400);
    const bulk = await h.mg.lists.members.createMembers("club@example.com", {
      members: [{ address: "bo@dest.test", name: "Bo", vars: { tier: "silver" } }, "Cy <cy@dest.test>", { address: "off@dest.test", subscribed: false }], upsert: "yes",
    } as never);
    expect(bulk.list.members_count).toBe(4);
    const csv = await h.call("POST", "/v3/lists/club@example.com/members.csv", { body: (() => {
      const fd = new FormData();
      fd.append("members", new File(["address,name,vars\ndee@dest.test,Dee,\"{\"\"tier\"\":\"\"bronze\"\"}\"\n"], "m.csv", { type: "text/csv" }));
      return fd;
    })() });
    expect(csv.status).toBe(200);
    expect((await jsonOf(csv)).list.members_count).toBe(5);
    expect(await h.mg.lists.members.getMember("club@example.com", "dee@dest.test")).toMatchObject({ name: "Dee", vars: { tier: "bronze" }, subscribed: true });
    const subscribed = await h.mg.lists.members.listMembers("club@example.com", { subscribed: "yes" } as never);
    expect(subscribed.items.map((x: any) => x.address)).toEqual(["ann@dest.test", "bo@dest.test", "cy@dest.test", "dee@dest.test"]);
    const upd = await h.mg.lists.members.updateMember("club@example.com", "cy@dest.test", { vars: { tier: "tin" } } as never);
    expect(upd).toMatchObject({ address: "cy@dest.test", vars: { tier: "tin" } });
    await h.mg.lists.members.createMember("club@example.com", { address: "gone@dest.test" } as never);
    expect(await h.mg.lists.members.destroyMember("club@example.com", "gone@dest.test")).toMatchObject({ member: { address: "gone@dest.test" } });
  });

  test("a send to the list reaches subscribed members with their vars and a working unsubscribe link", async () => {
    await h.mg.messages.create("example.com", { from: "club@example.com", to: "club@example.com", subject: "Hi %recipient.tier%",
      text: "Your tier: %recipient.tier%. Leave: %mailing_list_unsubscribe_url%" } as never);
    const ann = await received("ann@dest.test");
    const bo = await received("bo@dest.test");
    expect(ann.subject).toBe("Hi gold");
    expect(bo.text).toContain("Your tier: silver.");
    await eventually(async () => h.sink.messages.some((x) => x.to.includes("dee@dest.test")));
    expect(h.sink.messages.some((x) => x.to.includes("off@dest.test"))).toBe(false);
    const link = /Leave: (\S+)/.exec(ann.text!)![1]!;
    expect(link).toContain("/t/l/");
    expect(bo.text).not.toContain(link);
    const path = new URL(link).pathname;
    const ask = await h.t.app.http(new Request(`http://127.0.0.1${path}`));
    expect(ask.status).toBe(200);
    expect((await h.mg.lists.members.getMember("club@example.com", "ann@dest.test")).subscribed).toBe(true);
    const done = await h.t.app.http(new Request(`http://127.0.0.1${path}`, { method: "POST" }));
    expect(done.status).toBe(200);
    expect((await h.mg.lists.members.getMember("club@example.com", "ann@dest.test")).subscribed).toBe(false);
    const forged = await h.t.app.http(new Request(`http://127.0.0.1${path.slice(0, -2)}xx`, { method: "POST" }));
    expect(forged.status).toBe(404);
  });
});

describe("isolation between domains", () => {
  test("another domain's sending key neither manages nor expands the list", async () => {
    expect((await h.call("GET", "/v3/lists/pages", { key: otherKey })).status).toBe(403);
    const before = h.sink.messages.length;
    const res = await h.call("POST", "/v3/other.test/messages", { key: otherKey, body: new URLSearchParams({ from: "a@other.test", to: "club@example.com", subject: "x", text: "x" }) });
    expect(res.status).toBe(200);
    await eventually(async () => h.sink.messages.length > before);
    expect(h.sink.messages.slice(before).flatMap((m) => m.to)).toEqual(["club@example.com"]);
  });
});
