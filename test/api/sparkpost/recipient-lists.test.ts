// /api/v1/recipient-lists with the official `sparkpost` client, and transmissions to a stored list
// (`recipients: {list_id}`) arriving at the SMTP sink with each recipient's substitution data and
// metadata; one domain's key cannot see or use another domain's lists.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type SparkPost from "sparkpost";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
let other: SparkPost;
beforeAll(async () => {
  env = await startSpEnv();
  await env.t.app.domains.add("other.test");
  await env.t.app.domains.verify("other.test", true);
  other = env.client((await env.t.app.access.createKey({ kind: "domain", domain: "other.test" })).key);
});
afterAll(async () => { await env.close(); });

const recipients = [
  { address: { email: "Ann@dest.test", name: "Ann" }, substitution_data: { first: "Ann", plan: "pro" }, metadata: { uid: "1" }, tags: ["a"] },
  { address: "bo@dest.test", substitution_data: { first: "Bo" }, metadata: { uid: "2" } },
  { address: { email: "not an address" } },
];

describe("recipient lists", () => {
  test("create, list, get with recipients, update, delete", async () => {
    const created = await env.domain.recipientLists.create({ id: "vip", name: "VIPs", description: "d", attributes: { a: 1 }, recipients });
    expect(created.results).toEqual({ total_rejected_recipients: 1, total_accepted_recipients: 2, id: "vip", name: "VIPs" });
    const list = await env.domain.recipientLists.list();
    expect(list.results.find((l: any) => l.id === "vip")).toEqual({ id: "vip", name: "VIPs", description: "d", attributes: { a: 1 }, total_accepted_recipients: 2 });
    const got = await env.domain.recipientLists.get("vip", { show_recipients: true });
    expect(got.results.recipients[0]).toEqual({ address: { email: "ann@dest.test", name: "Ann" }, tags: ["a"], metadata: { uid: "1" }, substitution_data: { first: "Ann", plan: "pro" } });
    const updated = await env.domain.recipientLists.update("vip", { name: "VIP", recipients: [{ address: "cy@dest.test" }] });
    expect(updated.results).toMatchObject({ total_accepted_recipients: 1, name: "VIP" });
    expect((await env.domain.recipientLists.get("vip")).results.recipients).toBeUndefined();
    await env.domain.recipientLists.delete("vip");
    expect((await failure(env.domain.recipientLists.get("vip"))).statusCode).toBe(404);
  });

  test("no valid recipient is 5002; a taken id is 409", async () => {
    const none = await failure(env.domain.recipientLists.create({ name: "empty", recipients: [{ address: "bad" }] }));
    expect(none.statusCode).toBe(422);
    expect(none.errors[0]!.code).toBe("5002");
    await env.domain.recipientLists.create({ id: "dup", recipients: [{ address: "a@dest.test" }] });
    expect((await failure(env.domain.recipientLists.create({ id: "dup", recipients: [{ address: "a@dest.test" }] }))).statusCode).toBe(409);
  });

  test("a transmission to a stored list renders each recipient's data and carries its metadata", async () => {
    await env.domain.recipientLists.create({ id: "news", name: "News", recipients });
    const res = await env.domain.transmissions.send({ recipients: { list_id: "news" }, metadata: { campaign: "c" },
      content: { from: "news@example.com", subject: "Hi {{first}}", text: "{{first}}{{if plan}} ({{plan}}){{end}}" } });
    expect(res.results).toMatchObject({ total_accepted_recipients: 2 });
    const ann = await env.received("ann@dest.test");
    const bo = await env.received("bo@dest.test");
    expect(ann.parsed.subject).toBe("Hi Ann");
    expect(ann.parsed.text?.trim()).toBe("Ann (pro)");
    expect(bo.parsed.text?.trim()).toBe("Bo");
    const events = await env.t.app.activity.events("example.com", { recipient: "ann@dest.test", limit: 10, ascending: true, types: ["accepted"] });
    expect(events[0]!.metadata).toMatchObject({ uid: "1", campaign: "c" });
    expect(events[0]!.tags).toEqual(["a"]);
  });

  test("a template send to a stored list takes the template's from", async () => {
    await env.domain.templates.create({ id: "lt", name: "lt", published: true, content: { from: "team@example.com", subject: "T {{first}}", html: "<b>{{first}}</b>" } });
    await env.domain.recipientLists.create({ id: "tl", recipients: [{ address: "tl@dest.test", substitution_data: { first: "Tia" } }] });
    await env.domain.transmissions.send({ recipients: { list_id: "tl" }, content: { template_id: "lt" } });
    const m = await env.received("tl@dest.test");
    expect(m.parsed.subject).toBe("T Tia");
    expect(m.parsed.from?.address).toBe("team@example.com");
  });
});

describe("isolation between domains", () => {
  test("another domain's key neither sees nor uses a domain's list", async () => {
    await env.domain.recipientLists.create({ id: "mine", recipients: [{ address: "m@dest.test" }] });
    expect((await failure(other.recipientLists.get("mine"))).statusCode).toBe(404);
    expect((await other.recipientLists.list()).results.map((l: any) => l.id)).not.toContain("mine");
    const send = await failure(other.transmissions.send({ recipients: { list_id: "mine" }, content: { from: "a@other.test", subject: "s", text: "t" } }));
    expect(send.errors[0]!.code).toBe("1603");
    expect((await failure(other.recipientLists.delete("mine"))).statusCode).toBe(404);
  });
});
