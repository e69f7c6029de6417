// /v3/{domain}/templates with the official mailgun.js client: templates and tagged versions
// created, read, paged, activated, and used by sends (template, t:version, t:variables,
// h:X-Mailgun-Variables, t:text) that arrive at the SMTP sink; errors and isolation between domains.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { failure, receivedBy, jsonOf, startHarness, type MailgunHarness } from "./helpers.ts";

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

const T = () => h.mg.domains.domainTemplates;
const received = (rcpt: string) => receivedBy(h, rcpt);

describe("templates and versions", () => {
  test("create with a first version, get with the active version, update, list pages, delete", async () => {
    const created = await T().create("example.com", { name: "Welcome.Mail", description: "hello", template: "<p>Hi {{name}}</p>", tag: "v1", comment: "first",
      headers: JSON.stringify({ Subject: "Welcome {{name}}" }) } as never);
    expect(created).toMatchObject({ name: "welcome.mail", description: "hello", version: { tag: "v1", active: true, template: "<p>Hi {{name}}</p>", comment: "first" } });
    expect(created.createdAt).toBeInstanceOf(Date);
    const got = await T().get("example.com", "welcome.mail", { active: "yes" } as never);
    expect(got.version).toMatchObject({ tag: "v1", engine: "handlebars", headers: { Subject: "Welcome {{name}}" } });
    expect((await T().get("example.com", "welcome.mail")).version).toBeUndefined();
    const updated = await T().update("example.com", "welcome.mail", { description: "changed" });
    expect(updated).toMatchObject({ status: 200, message: "template has been updated", templateName: "welcome.mail" });
    for (const n of ["p1", "p2", "p3"]) await T().create("example.com", { name: n, description: "" } as never);
    const page = await T().list("example.com", { limit: 2 });
    expect(page.items.map((i) => i.name)).toEqual(["welcome.mail", "p1"]);
    const next = await T().list("example.com", { limit: 2, page: page.pages.next!.page as never, p: page.pages.next!.iteratorPosition } as never);
    expect(next.items.map((i) => i.name)).toEqual(["p2", "p3"]);
    const deleted = await T().destroy("example.com", "p1");
    expect(deleted).toMatchObject({ message: "template has been deleted", templateName: "p1" });
    expect((await failure(T().get("example.com", "p1"))).status).toBe(404);
  });

  test("versions: add, activate, list, update, delete; sends use the active one or t:version", async () => {
    await T().create("example.com", { name: "order", description: "", template: "<p>one {{item}}</p>", tag: "one", headers: JSON.stringify({ Subject: "Order {{item}}" }) } as never);
    const v2 = await T().createVersion("example.com", "order", { template: "<p>two {{item}} {{#equal size \"L\"}}large{{else}}small{{/equal}}</p>", tag: "two", active: "no" } as never);
    expect(v2).toMatchObject({ message: "new version of the template has been stored", template: { name: "order", version: { tag: "two", active: false } } });
    const versions = await T().listVersions("example.com", "order");
    expect(versions.template.versions!.map((v) => [v.tag, v.active])).toEqual([["one", true], ["two", false]]);

    await h.mg.messages.create("example.com", { from: "shop@example.com", to: "o1@dest.test", template: "order", "t:variables": JSON.stringify({ item: "hat" }) } as never);
    const m1 = await received("o1@dest.test");
    expect(m1.subject).toBe("Order hat");
    expect(m1.html).toContain("<p>one hat</p>");

    await h.mg.messages.create("example.com", { from: "shop@example.com", to: "o2@dest.test", subject: "Own subject", template: "order", "t:version": "two", "t:text": "yes",
      "h:X-Mailgun-Variables": JSON.stringify({ item: "cap", size: "L" }) } as never);
    const m2 = await received("o2@dest.test");
    expect(m2.subject).toBe("Own subject");
    expect(m2.html).toContain("<p>two cap large</p>");
    expect(m2.text?.trim()).toBe("two cap large");

    const act = await T().updateVersion("example.com", "order", "two", { active: "yes" } as never);
    expect(act).toMatchObject({ message: "version has been updated", templateName: "order", templateVersion: { tag: "two" } });
    await h.mg.messages.create("example.com", { from: "shop@example.com", to: "o3@dest.test", subject: "s", template: "order", "v:item": "scarf" } as never);
    expect((await received("o3@dest.test")).html).toContain("<p>two scarf small</p>");
    const one = await T().getVersion("example.com", "order", "one");
    expect(one.version).toMatchObject({ tag: "one", active: false, template: "<p>one {{item}}</p>" });
    const del = await T().destroyVersion("example.com", "order", "one");
    expect(del).toMatchObject({ message: "version has been deleted", templateVersion: { tag: "one" } });
  });

  test("errors: Mailgun's shape, naming template, version and missing helper", async () => {
    await T().create("example.com", { name: "broken", description: "", template: "{{#nope a}}x{{/nope}}", tag: "bad" } as never);
    const res = await h.call("POST", "/v3/example.com/messages", { body: new URLSearchParams({ from: "a@example.com", to: "x@dest.test", template: "broken" }) });
    expect(res.status).toBe(400);
    const body = await jsonOf(res);
    expect(body.message).toContain("template broken version bad");
    expect(body.message).toContain('missing helper "nope"');
    const unknown = await h.call("POST", "/v3/example.com/messages", { body: new URLSearchParams({ from: "a@example.com", to: "x@dest.test", template: "order", "t:version": "zzz" }) });
    expect(unknown.status).toBe(400);
    expect((await jsonOf(unknown)).message).toContain('has no version "zzz"');
    const noName = await h.call("POST", "/v3/example.com/templates", { body: new URLSearchParams({ description: "x" }) });
    expect(noName.status).toBe(400);
    expect(await jsonOf(noName)).toEqual({ message: "name parameter is missing" });
    expect((await failure(T().create("example.com", { name: "broken", description: "" } as never))).status).toBe(400);
  });
});

describe("one template, every surface", () => {
  test("a Mailgun template serves SendGrid's mail/send and a SparkPost transmission", async () => {
    await T().create("example.com", { name: "shared-mg", description: "", template: "<i>{{who}}</i>", tag: "v", headers: JSON.stringify({ Subject: "For {{who}}", From: "Team <team@example.com>" }) } as never);
    const sg = await h.t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
      method: "POST", headers: { authorization: `Bearer ${h.t.domainKey}`, "content-type": "application/json" },
      body: JSON.stringify({ from: { email: "a@example.com" }, template_id: "shared-mg", personalizations: [{ to: [{ email: "sg-mg@dest.test" }], dynamic_template_data: { who: "Sam" } }] }),
    }));
    expect(sg.status).toBe(202);
    const viaSg = await received("sg-mg@dest.test");
    expect(viaSg.subject).toBe("For Sam");
    expect(viaSg.html).toContain("<i>Sam</i>");
    const sp = await h.t.app.http(new Request("http://127.0.0.1/api/v1/transmissions", {
      method: "POST", headers: { authorization: h.t.domainKey, "content-type": "application/json" },
      body: JSON.stringify({ recipients: [{ address: "sp-mg@dest.test", substitution_data: { who: "Pia" } }], content: { template_id: "shared-mg" } }),
    }));
    expect(sp.status).toBe(200);
    const viaSp = await received("sp-mg@dest.test");
    expect(viaSp.html).toContain("<i>Pia</i>");
    expect(viaSp.from).toMatchObject({ address: "team@example.com", name: "Team" });
  });
});

describe("isolation between domains", () => {
  test("another domain's templates are neither listed nor sent; sending keys cannot manage templates", async () => {
    await T().create("other.test", { name: "theirs", description: "", template: "<b>theirs {{x}}</b>", tag: "t" } as never);
    expect((await T().list("example.com")).items.map((i) => i.name)).not.toContain("theirs");
    const send = await h.call("POST", "/v3/example.com/messages", { body: new URLSearchParams({ from: "a@example.com", to: "x@dest.test", template: "theirs" }) });
    expect(send.status).toBe(400);
    expect((await jsonOf(send)).message).toContain('template "theirs" not found');
    const byKey = await h.call("POST", "/v3/example.com/messages", { key: otherKey, body: new URLSearchParams({ from: "a@example.com", to: "x@dest.test", template: "order" }) });
    expect(byKey.status).toBe(403);
    const manage = await h.call("GET", "/v3/other.test/templates", { key: otherKey });
    expect(manage.status).toBe(403);
    await h.client(otherKey).messages.create("other.test", { from: "a@other.test", to: "th@dest.test", subject: "s", template: "theirs", "t:variables": "{\"x\":1}" } as never);
    expect((await received("th@dest.test")).html).toContain("<b>theirs 1</b>");
  });
});
