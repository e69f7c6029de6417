// /v3/templates with the official @sendgrid/client: templates and versions created, activated and
// used by mail/send (arriving at the SMTP sink), SendGrid's helpers and unsubscribe tags, errors
// naming template and version, and one domain's key unable to see or use another's templates.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, parsedFor, startHarness, writeTemplate, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let other: ReturnType<SendgridHarness["clientsFor"]>;
let account: ReturnType<SendgridHarness["clientsFor"]>;
beforeAll(async () => {
  h = await startHarness();
  await h.t.app.domains.add("other.test");
  await h.t.app.domains.verify("other.test", true);
  other = h.clientsFor((await h.t.app.access.createKey({ kind: "domain", domain: "other.test" })).key);
  account = h.clientsFor(h.t.accountKey);
});
afterAll(async () => { await h.close(); });

type Body = Record<string, any>;
const call = async (c = h.client, method: string, url: string, body?: unknown): Promise<[number, Body]> => {
  try {
    const [res, b] = await c.request({ method: method as "GET", url, ...(body !== undefined ? { body: body as object } : {}) });
    return [res.statusCode, b as Body];
  } catch (err) {
    const e = err as { code: number; response: { body: Body } };
    return [e.code, e.response.body];
  }
};
const delivered = (rcpt: string) => eventually(() => parsedFor(h.sink, rcpt), (l) => l.length >= 1);

async function dynamicTemplate(versions: Body[], c = h.client) {
  const [status, t] = await call(c, "POST", "/v3/templates", { name: "welcome", generation: "dynamic" });
  expect(status).toBe(201);
  const ids: string[] = [];
  for (const v of versions) {
    const [vs, vb] = await call(c, "POST", `/v3/templates/${t.id}/versions`, v);
    expect(vs).toBe(201);
    ids.push(vb.id);
  }
  return { id: t.id as string, versions: ids };
}

describe("templates and versions", () => {
  test("create, read, rename, list by generation and page, delete", async () => {
    const [s1, t] = await call(h.client, "POST", "/v3/templates", { name: "receipt", generation: "dynamic" });
    expect(s1).toBe(201);
    expect(t).toMatchObject({ name: "receipt", generation: "dynamic", versions: [] });
    expect(t.id).toMatch(/^d-[0-9a-f]{32}$/);
    expect(t.updated_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const [, legacy] = await call(h.client, "POST", "/v3/templates", { name: "old" });
    expect(legacy.generation).toBe("legacy");
    expect(legacy.id).toMatch(/^[0-9a-f-]{36}$/);
    const [, renamed] = await call(h.client, "PATCH", `/v3/templates/${t.id}`, { name: "receipt2" });
    expect(renamed.name).toBe("receipt2");
    const [, defaults] = await call(h.client, "GET", "/v3/templates");
    expect(defaults.templates.map((x: Body) => x.id)).toContain(legacy.id);
    expect(defaults.templates.map((x: Body) => x.id)).not.toContain(t.id);
    const [, paged] = await call(h.client, "GET", "/v3/templates?generations=legacy,dynamic&page_size=1");
    expect(paged.result).toHaveLength(1);
    expect(paged._metadata.count).toBeGreaterThanOrEqual(2);
    expect(paged._metadata.next).toContain("page_token=1");
    const [del] = await call(h.client, "DELETE", `/v3/templates/${t.id}`);
    expect(del).toBe(204);
    const [gone, body] = await call(h.client, "GET", `/v3/templates/${t.id}`);
    expect(gone).toBe(404);
    expect(body.errors[0].message).toBeTruthy();
  });

  test("the first version is active; activating another switches mail/send to it", async () => {
    const t = await dynamicTemplate([
      { name: "v1", subject: "Hi {{first}}", html_content: "<p>one {{first}}</p>" },
      { name: "v2", subject: "Hey {{first}}", html_content: "<p>two {{first}}</p>", plain_content: "two {{first}}", generate_plain_content: false },
    ]);
    const [, got] = await call(h.client, "GET", `/v3/templates/${t.id}`);
    expect(got.versions.map((v: Body) => [v.name, v.active])).toEqual([["v1", 1], ["v2", 0]]);
    const [, v1] = await call(h.client, "GET", `/v3/templates/${t.id}/versions/${t.versions[0]}`);
    expect(v1).toMatchObject({ template_id: t.id, active: 1, html_content: "<p>one {{first}}</p>", generate_plain_content: true, editor: "code" });

    await h.mail.send({ to: "v1@dest.test", from: "a@example.com", templateId: t.id, dynamicTemplateData: { first: "Ann" } });
    const [m1] = await delivered("v1@dest.test");
    expect(m1!.email.subject).toBe("Hi Ann");
    expect(m1!.email.html).toContain("<p>one Ann</p>");
    expect(m1!.email.text?.trim()).toBe("one Ann"); // generate_plain_content

    const [as, activated] = await call(h.client, "POST", `/v3/templates/${t.id}/versions/${t.versions[1]}/activate`);
    expect(as).toBe(200);
    expect(activated).toMatchObject({ id: t.versions[1], active: 1 });
    await h.mail.send({ to: "v2@dest.test", from: "a@example.com", templateId: t.id, dynamicTemplateData: { first: "Bo" } });
    const [m2] = await delivered("v2@dest.test");
    expect(m2!.email.subject).toBe("Hey Bo");
    expect(m2!.email.text?.trim()).toBe("two Bo");

    const [ps, patched] = await call(h.client, "PATCH", `/v3/templates/${t.id}/versions/${t.versions[1]}`, { subject: "Yo {{first}}" });
    expect(ps).toBe(200);
    expect(patched).toMatchObject({ subject: "Yo {{first}}", active: 1 });
    const [ds] = await call(h.client, "DELETE", `/v3/templates/${t.id}/versions/${t.versions[0]}`);
    expect(ds).toBe(204);
    const [dup, copy] = await call(h.client, "POST", `/v3/templates/${t.id}`, { name: "copy" });
    expect(dup).toBe(201);
    expect(copy.versions.map((v: Body) => v.subject)).toEqual(["Yo {{first}}"]);
  });

  test("SendGrid helpers per personalization, {{{unsubscribe}}} is the recipient's working link, {{{unsubscribe_preferences}}} their preferences", async () => {
    const t = await dynamicTemplate([{
      name: "helpers", subject: "{{#greaterThan (length items) 1}}Your {{length items}} items{{else}}Your item{{/greaterThan}}",
      html_content: "<p>{{insert name \"default=Customer\"}}, {{#equals plan \"pro\"}}pro{{else}}free{{/equals}} since {{formatDate since \"MMMM D, YYYY\"}}</p><a href=\"{{{unsubscribe}}}\">unsub</a> <a href=\"{{{unsubscribe_preferences}}}\">prefs</a>",
    }]);
    const [res] = await h.mail.send({
      from: "a@example.com", templateId: t.id,
      personalizations: [
        { to: "h1@dest.test", dynamicTemplateData: { name: "Ann", plan: "pro", items: [1, 2], since: "2020-03-05T10:00:00Z" } },
        { to: "h2@dest.test", dynamicTemplateData: { items: [1], since: "2021-12-24T10:00:00Z" } },
      ],
    } as never);
    expect(res.statusCode).toBe(202);
    const [a] = await delivered("h1@dest.test");
    const [b] = await delivered("h2@dest.test");
    expect(a!.email.subject).toBe("Your 2 items");
    expect(a!.email.html).toContain("<p>Ann, pro since March 5, 2020</p>");
    expect(b!.email.subject).toBe("Your item");
    expect(b!.email.html).toContain("<p>Customer, free since December 24, 2021</p>");
    const link = /href="([^"]+\/t\/u\/[^"]+)"/.exec(a!.email.html!)?.[1];
    expect(link).toBeTruthy();
    expect(a!.email.html).not.toContain("%unsubscribe_url%");
    // {{{unsubscribe_preferences}}} is the preferences page (no groups here: only the way out of all mail).
    const prefs = /href="([^"]+\/t\/u\/[^"]+)">prefs/.exec(a!.email.html!)?.[1];
    expect(prefs).not.toBe(link);
    expect(await (await fetch(prefs!.replace(/^https?:\/\/[^/]+/, h.base.replace(/\/$/, "")))).text()).toContain("Unsubscribe from all emails");
    const page = await fetch(link!.replace(/^https?:\/\/[^/]+/, h.base.replace(/\/$/, "")), { method: "POST" });
    expect(page.status).toBeLessThan(400);
    await eventually(() => h.t.app.suppressions.get("example.com", "unsubscribes", "h1@dest.test"), (x) => x !== null);
  });

  test("a rendering error names template, version and the missing helper, in SendGrid's shape", async () => {
    const t = await dynamicTemplate([{ name: "broken", subject: "s", html_content: "{{#nope x}}y{{/nope}}" }]);
    const [status, body] = await call(h.client, "POST", "/v3/mail/send", {
      from: { email: "a@example.com" }, template_id: t.id, personalizations: [{ to: [{ email: "x@dest.test" }] }],
    });
    expect(status).toBe(400);
    expect(body.errors[0].field).toBe("template_id");
    expect(body.errors[0].message).toContain(t.id);
    expect(body.errors[0].message).toContain(`version ${t.versions[0]}`);
    expect(body.errors[0].message).toContain('missing helper "nope"');
  });

  test("bad input answers 400 in SendGrid's shape", async () => {
    const [s1, b1] = await call(h.client, "POST", "/v3/templates", { generation: "fancy" });
    expect(s1).toBe(400);
    expect(b1.errors.map((e: Body) => e.field).sort()).toEqual(["generation", "name"]);
    const t = await dynamicTemplate([]);
    const [s2, b2] = await call(h.client, "POST", `/v3/templates/${t.id}/versions`, { subject: "no name", active: 7 });
    expect(s2).toBe(400);
    expect(b2.errors.map((e: Body) => e.field).sort()).toEqual(["active", "name"]);
  });

  test("files of the templates directory still serve as templates", async () => {
    writeTemplate(h.templatesDir, "from-file", { subject: "File {{n}}", html: "{{#equals n 1}}one{{/equals}}" });
    const [fs, fb] = await call(h.client, "POST", "/v3/mail/send", { from: { email: "a@example.com" }, template_id: "from-file", personalizations: [{ to: [{ email: "file@dest.test" }], dynamic_template_data: { n: 1 } }] });
    expect([fs, fb]).toEqual([202, ""] as never);
    const [m] = await delivered("file@dest.test");
    expect(m!.email.subject).toBe("File 1");
    expect(m!.email.html).toContain("one");
  });
});

describe("isolation between domains", () => {
  test("another domain's key neither sees nor uses nor changes a domain's template", async () => {
    const t = await dynamicTemplate([{ name: "secret", subject: "S", html_content: "secret content" }]);
    const [s1] = await call(other.client, "GET", `/v3/templates/${t.id}`);
    expect(s1).toBe(404);
    const [, list] = await call(other.client, "GET", "/v3/templates?generations=dynamic");
    expect(list.templates.map((x: Body) => x.id)).not.toContain(t.id);
    const [s2] = await call(other.client, "POST", `/v3/templates/${t.id}/versions`, { name: "x" });
    expect(s2).toBe(404);
    const [s3, b3] = await call(other.client, "POST", "/v3/mail/send", {
      from: { email: "a@other.test" }, template_id: t.id, personalizations: [{ to: [{ email: "x@dest.test" }] }],
    });
    expect(s3).toBe(400);
    expect(b3.errors[0].field).toBe("template_id");
  });

  test("an account key's template is account-wide: every domain may use it, none may change it", async () => {
    const t = await dynamicTemplate([{ name: "shared", subject: "Shared {{x}}", html_content: "<b>{{x}}</b>" }], account.client);
    const [s1] = await call(other.client, "GET", `/v3/templates/${t.id}`);
    expect(s1).toBe(200);
    const [s2] = await call(other.client, "PATCH", `/v3/templates/${t.id}`, { name: "mine" });
    expect(s2).toBe(403);
    await other.mail.send({ to: "shared@dest.test", from: "a@other.test", templateId: t.id, dynamicTemplateData: { x: "ok" } });
    const [m] = await delivered("shared@dest.test");
    expect(m!.email.subject).toBe("Shared ok");
  });
});
