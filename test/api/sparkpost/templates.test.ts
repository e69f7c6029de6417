// /api/v1/templates with the official `sparkpost` client: drafts and published versions,
// preview with substitution data, transmissions that take the template's from, templates shared
// with the SendGrid surface, and one domain's key unable to see or use another's templates.
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

const content = { from: { email: "news@example.com", name: "News" }, subject: "Hi {{first}}", html: "<b>{{first}}</b>{{if promo}} {{promo}}{{end}}", text: "Hi {{first}}", reply_to: "help@example.com", headers: { "X-Tpl": "{{first}}" } };

describe("templates", () => {
  test("a draft, published later, is listed, read, previewed and deleted", async () => {
    const created = await env.domain.templates.create({ name: "Summer Sale!", content });
    expect(created.results.id).toBe("summer-sale");
    const draft = await env.domain.templates.get("summer-sale", { draft: true });
    expect(draft.results).toMatchObject({ id: "summer-sale", name: "Summer Sale!", published: false, has_draft: true, has_published: false });
    expect(draft.results.content).toMatchObject({ from: { email: "news@example.com", name: "News" }, subject: "Hi {{first}}", reply_to: "help@example.com" });
    const unpublished = await failure(env.domain.transmissions.send({ recipients: [{ address: "u@dest.test" }], content: { template_id: "summer-sale" } }));
    expect(unpublished.statusCode).toBe(422);
    expect(unpublished.errors[0]!.code).toBe("1603");

    await env.domain.templates.update("summer-sale", { published: true });
    const list = await env.domain.templates.list();
    expect(list.results.find((t: any) => t.id === "summer-sale")).toMatchObject({ published: true, has_draft: false, has_published: true });
    const preview = await env.domain.templates.preview("summer-sale", { substitution_data: { first: "<Pat>", promo: "10%" } });
    expect(preview.results).toMatchObject({ subject: "Hi <Pat>", html: "<b>&lt;Pat&gt;</b> 10%", text: "Hi <Pat>", headers: { "X-Tpl": "<Pat>" } });

    await env.domain.templates.delete("summer-sale");
    expect((await failure(env.domain.templates.get("summer-sale"))).statusCode).toBe(404);
  });

  test("a transmission without content.from takes the template's from, reply_to and headers", async () => {
    await env.domain.templates.create({ id: "welcome-tx", name: "Welcome", published: true, content });
    const res = await env.domain.transmissions.send({
      recipients: [{ address: "w1@dest.test", substitution_data: { first: "Ann" } }, { address: "w2@dest.test", substitution_data: { first: "Bo", promo: "free" } }],
      content: { template_id: "welcome-tx" },
    });
    expect(res.results.total_accepted_recipients).toBe(2);
    const a = await env.received("w1@dest.test");
    const b = await env.received("w2@dest.test");
    expect(a.parsed.from).toMatchObject({ address: "news@example.com", name: "News" });
    expect(a.parsed.subject).toBe("Hi Ann");
    expect(a.parsed.replyTo?.[0]?.address).toBe("help@example.com");
    expect(a.parsed.headers.find((h) => h.key === "x-tpl")?.value).toBe("Ann");
    expect(b.parsed.html).toContain("<b>Bo</b> free");
  });

  test("the template's options apply where the transmission sets none", async () => {
    await env.domain.templates.create({ id: "opened", name: "opened", published: true, options: { open_tracking: true }, content });
    await env.domain.transmissions.send({ recipients: [{ address: "op1@dest.test", substitution_data: { first: "O" } }], content: { template_id: "opened" } });
    await env.domain.transmissions.send({ recipients: [{ address: "op2@dest.test", substitution_data: { first: "P" } }], content: { template_id: "opened" }, options: { open_tracking: false } });
    expect((await env.received("op1@dest.test")).parsed.html).toContain("/t/o/");
    expect((await env.received("op2@dest.test")).parsed.html).not.toContain("/t/o/");
  });

  test("use_draft_template sends the draft; update_published changes the live version", async () => {
    await env.domain.templates.create({ id: "drafty", name: "Drafty", published: true, content });
    await env.domain.templates.update("drafty", { content: { ...content, subject: "Draft {{first}}" } });
    await env.domain.transmissions.send({ recipients: [{ address: "d1@dest.test", substitution_data: { first: "D" } }], content: { template_id: "drafty", use_draft_template: true } });
    await env.domain.transmissions.send({ recipients: [{ address: "d2@dest.test", substitution_data: { first: "P" } }], content: { template_id: "drafty" } });
    expect((await env.received("d1@dest.test")).parsed.subject).toBe("Draft D");
    expect((await env.received("d2@dest.test")).parsed.subject).toBe("Hi P");
    await env.domain.templates.update("drafty", { content: { ...content, subject: "Live {{first}}" } }, { update_published: true });
    expect((await env.domain.templates.get("drafty", { draft: false })).results.content.subject).toBe("Live {{first}}");
    expect((await env.domain.templates.get("drafty", { draft: true })).results.content.subject).toBe("Draft {{first}}");
  });

  test("bad input is 422 in SparkPost's shape; a broken stored template names template and version", async () => {
    const missing = await failure(env.domain.templates.create({ name: "nofrom", content: { subject: "s", html: "h" } }));
    expect(missing.statusCode).toBe(422);
    expect(missing.errors[0]).toMatchObject({ code: "1400", description: "content.from is required" });
    await env.domain.templates.create({ id: "dup", name: "dup", content });
    expect((await failure(env.domain.templates.create({ id: "dup", name: "dup", content }))).statusCode).toBe(409);
    await env.domain.templates.create({ id: "broken", name: "broken", published: true, content: { ...content, html: "{{if x}}never closed" } });
    const err = await failure(env.domain.transmissions.send({ recipients: [{ address: "b@dest.test" }], content: { template_id: "broken" } }));
    expect(err.statusCode).toBe(422);
    expect(err.errors[0]!.description).toContain("template 'broken' version 'published' (html)");
  });

  test("a key without the templates grant is refused", async () => {
    const { key } = await env.t.app.access.createKey({ kind: "domain", domain: "example.com", grants: ["transmissions/modify"] } as never);
    expect((await failure(env.client(key).templates.list())).statusCode).toBe(403);
  });
});

describe("isolation and sharing", () => {
  test("another domain's key neither sees nor uses nor changes a domain's template", async () => {
    await env.domain.templates.create({ id: "private", name: "private", published: true, content });
    expect((await failure(other.templates.get("private"))).statusCode).toBe(404);
    expect((await other.templates.list()).results.map((t: any) => t.id)).not.toContain("private");
    expect((await failure(other.templates.update("private", { published: true }))).statusCode).toBe(404);
    const send = await failure(other.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { template_id: "private", from: "a@other.test" } }));
    expect(send.errors[0]!.code).toBe("1603");
  });

  test("an account key's template serves every domain; a SparkPost template serves SendGrid's mail/send", async () => {
    await env.account.templates.create({ id: "shared", name: "shared", published: true, content: { ...content, from: "team@other.test" } });
    await other.transmissions.send({ recipients: [{ address: "s1@dest.test", substitution_data: { first: "Sy" } }], content: { template_id: "shared" } });
    expect((await env.received("s1@dest.test")).parsed.subject).toBe("Hi Sy");
    // Both languages agree on {{var}}: the SparkPost template renders as a SendGrid dynamic one.
    await env.domain.templates.create({ id: "plain", name: "plain", published: true, content: { ...content, html: "<b>{{first}}</b>" } });
    const res = await env.t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
      method: "POST", headers: { authorization: `Bearer ${env.t.domainKey}`, "content-type": "application/json" },
      body: JSON.stringify({ from: { email: "a@example.com" }, template_id: "plain", personalizations: [{ to: [{ email: "sg@dest.test" }], dynamic_template_data: { first: "Gil" } }] }),
    }));
    expect(res.status).toBe(202);
    const m = await env.received("sg@dest.test");
    expect(m.parsed.subject).toBe("Hi Gil");
    expect(m.parsed.html).toContain("<b>Gil</b>");
  });
});
