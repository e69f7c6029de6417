// The official @sendgrid/mail and @sendgrid/client against a listening postern, with what
// arrives at a local SMTP sink and what the activity log records.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { b64, eventually, parsedFor, startHarness, writeTemplate, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const FROM = { email: "alice@example.com", name: "Alice Sender" };
const delivered = (rcpt: string, n = 1) => eventually(() => parsedFor(h.sink, rcpt), (l) => l.length >= n);
const eventsOf = (recipient: string, types?: string[]) =>
  h.t.app.activity.events("example.com", { recipient, limit: 50, ascending: true, types });

describe("@sendgrid/mail send", () => {
  test("answers 202 with an empty body and X-Message-Id, and the message is delivered", async () => {
    const [res, body] = await h.mail.send({ to: "Bob <bob@dest.test>", from: FROM, subject: "Hello", text: "plain body", html: "<p>html body</p>" });
    expect(res.statusCode).toBe(202);
    expect(body).toBe("");
    const id = res.headers["x-message-id"];
    expect(id).toMatch(/^[0-9a-z]{20}$/);
    const [msg] = await delivered("bob@dest.test");
    expect(msg!.email.subject).toBe("Hello");
    expect(msg!.email.from).toMatchObject({ address: "alice@example.com", name: "Alice Sender" });
    expect(msg!.email.text?.trim()).toBe("plain body");
    expect(msg!.email.html).toContain("<p>html body</p>");
    expect(msg!.head.toLowerCase()).toContain(`x-postern-id: ${id}`);
  });

  test("substitutes per personalization without leaking one recipient's data to another", async () => {
    const [res] = await h.mail.send({
      from: FROM, subject: "Hello {{name}}", text: "Dear {{name}}, your code is {{code}}.", html: "<p>{{name}}: {{code}}</p>",
      headers: { "X-Code": "{{code}}" }, customArgs: { literal: "{{name}}" },
      personalizations: [
        { to: "ann@dest.test", substitutions: { name: "Ann", code: "A-111" } },
        { to: "ben@dest.test", substitutions: { name: "Ben", code: "B-222" }, subject: "Personal {{name}}" },
      ],
    });
    expect(res.statusCode).toBe(202);
    const [ann] = await delivered("ann@dest.test");
    const [ben] = await delivered("ben@dest.test");
    expect(ann!.email.subject).toBe("Hello Ann");
    expect(ann!.email.text).toContain("Dear Ann, your code is A-111.");
    expect(ann!.email.html).toContain("<p>Ann: A-111</p>");
    expect(ann!.email.headers.find((x) => x.key === "x-code")?.value).toBe("A-111");
    expect(ben!.email.subject).toBe("Personal Ben");
    expect(ben!.email.text).toContain("Dear Ben, your code is B-222.");
    expect(ben!.email.headers.find((x) => x.key === "x-code")?.value).toBe("B-222");
    // Codes and addresses hold a character base64 has not: a DKIM signature or a boundary cannot spell them by chance, as it can "Ben".
    for (const leaked of ["B-222", "ben@dest.test"]) expect(ann!.envelope.raw.toString()).not.toContain(leaked);
    for (const leaked of ["A-111", "ann@dest.test"]) expect(ben!.envelope.raw.toString()).not.toContain(leaked);
    expect([ann!.email.subject, ann!.email.text, ann!.email.html].join("\n")).not.toContain("Ben");
    expect([ben!.email.subject, ben!.email.text, ben!.email.html].join("\n")).not.toContain("Ann");
    const [event] = await eventsOf("ann@dest.test", ["accepted"]);
    expect(event!.metadata).toEqual({ literal: "{{name}}" });
  });

  test("sendMultiple gives each recipient a message of its own", async () => {
    const [res] = await h.mail.sendMultiple({ from: FROM, to: ["m1@dest.test", "m2@dest.test"], subject: "Each", text: "t" });
    expect(res.statusCode).toBe(202);
    const [m1] = await delivered("m1@dest.test");
    const [m2] = await delivered("m2@dest.test");
    expect(m1!.envelope.to).toEqual(["m1@dest.test"]);
    expect(m1!.email.to?.map((a) => a.address)).toEqual(["m1@dest.test"]);
    expect(m2!.email.to?.map((a) => a.address)).toEqual(["m2@dest.test"]);
  });

  test("delivers to cc and bcc, shows cc, and keeps bcc out of the headers", async () => {
    await h.mail.send({ from: FROM, subject: "Copies", text: "t", to: "main@dest.test", cc: "Carl <carl@dest.test>", bcc: "hidden@dest.test" });
    const all = await eventually(async () => h.sink.messages.filter((m) => m.to.some((r) => ["main@dest.test", "carl@dest.test", "hidden@dest.test"].includes(r))),
      (l) => l.flatMap((m) => m.to).length >= 3);
    expect(all.flatMap((m) => m.to).sort()).toEqual(["carl@dest.test", "hidden@dest.test", "main@dest.test"]);
    const [msg] = await parsedFor(h.sink, "main@dest.test");
    expect(msg!.email.cc?.map((a) => a.address)).toEqual(["carl@dest.test"]);
    // A Bcc header line, not the letters: a DKIM signature's base64 holds "bcc" now and then.
    expect(msg!.head).not.toMatch(/^bcc:/im);
    for (const m of all) expect(m.raw.toString()).not.toContain("hidden@dest.test");
  });

  test("sends attachments and inline images (the SDK's contentId spelling)", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await h.mail.send({
      from: FROM, to: "files@dest.test", subject: "Files", text: "see attached", html: '<p><img src="cid:logo1"></p>',
      attachments: [
        { content: b64("hello file"), filename: "a.txt", type: "text/plain", disposition: "attachment" },
        { content: b64(png), filename: "logo.png", type: "image/png", disposition: "inline", contentId: "logo1" },
      ],
    });
    const [msg] = await delivered("files@dest.test");
    const file = msg!.email.attachments.find((a) => a.filename === "a.txt");
    const logo = msg!.email.attachments.find((a) => a.filename === "logo.png");
    expect(file).toMatchObject({ filename: "a.txt", mimeType: "text/plain", disposition: "attachment" });
    expect(Buffer.from(file!.content as ArrayBuffer).toString()).toBe("hello file");
    expect(logo).toMatchObject({ filename: "logo.png", mimeType: "image/png", disposition: "inline", contentId: "<logo1>" });
    expect(new Uint8Array(logo!.content as ArrayBuffer)).toEqual(png);
  });

  test("carries categories and custom_args (global < personalization) to events", async () => {
    await h.mail.send({
      from: FROM, subject: "Tagged", text: "t", categories: ["welcome", "beta"], customArgs: { orderId: 123, shared: "global" },
      personalizations: [{ to: "tagged@dest.test", customArgs: { shared: "mine" } }],
    });
    await delivered("tagged@dest.test");
    const events = await eventually(() => eventsOf("tagged@dest.test"), (l) => l.some((e) => e.type === "delivered"));
    expect(events.map((e) => e.type)).toEqual(["accepted", "delivered"]);
    for (const e of events) {
      expect(e.tags).toEqual(["welcome", "beta"]);
      expect(e.metadata).toEqual({ orderId: "123", shared: "mine" });
    }
  });

  test("renders a stored dynamic template per personalization with Handlebars", async () => {
    writeTemplate(h.templatesDir, "d-welcome", {
      subject: "Welcome {{first}}\n", html: "<h1>Hi {{first}}</h1><ul>{{#each items}}<li>{{this}}</li>{{/each}}</ul>", text: "Hi {{first}} ({{nested.a}})",
    });
    const [res] = await h.mail.send({
      from: FROM, templateId: "d-welcome", dynamicTemplateData: { nested: { a: "global" } },
      personalizations: [
        { to: "tpl1@dest.test", dynamicTemplateData: { first: "Yo<b>", items: ["x", "y"] } },
        { to: "tpl2@dest.test", dynamicTemplateData: { first: "Zed", items: [], nested: { a: "own" } } },
      ],
    });
    expect(res.statusCode).toBe(202);
    const [one] = await delivered("tpl1@dest.test");
    const [two] = await delivered("tpl2@dest.test");
    expect(one!.email.subject).toBe("Welcome Yo<b>");
    expect(one!.email.html).toContain("<h1>Hi Yo&lt;b&gt;</h1><ul><li>x</li><li>y</li></ul>");
    expect(one!.email.text).toContain("Hi Yo<b> (global)");
    expect(two!.email.subject).toBe("Welcome Zed");
    expect(two!.email.text).toContain("Hi Zed (own)");
  });

  test("uses the personalization's from, reply_to_list and custom headers", async () => {
    await h.mail.send({
      from: FROM, subject: "s", text: "t", headers: { "X-Campaign": "spring", "List-Id": "<news.example.com>" },
      replyToList: [{ email: "r1@example.com", name: "R1" }, { email: "r2@example.com" }],
      personalizations: [{ to: "pf@dest.test", from: { email: "news@example.com", name: "News" }, headers: { "X-Campaign": "own" } }],
    });
    const [msg] = await delivered("pf@dest.test");
    expect(msg!.email.from).toMatchObject({ address: "news@example.com", name: "News" });
    expect(msg!.email.replyTo?.map((a) => a.address)).toEqual(["r1@example.com", "r2@example.com"]);
    expect(msg!.email.headers.filter((x) => x.key === "x-campaign").map((x) => x.value)).toEqual(["own"]);
    expect(msg!.email.headers.find((x) => x.key === "list-id")?.value).toBe("<news.example.com>");
  });

  test("open tracking from tracking_settings overrides the domain default", async () => {
    await h.mail.send({ from: FROM, to: "open@dest.test", subject: "s", html: "<p>hi</p>", trackingSettings: { openTracking: { enable: true } } });
    await h.mail.send({ from: FROM, to: "noopen@dest.test", subject: "s", html: "<p>hi</p>" });
    const [tracked] = await delivered("open@dest.test");
    const [plain] = await delivered("noopen@dest.test");
    expect(tracked!.email.html).toContain("/t/o/");
    expect(plain!.email.html).not.toContain("/t/o/");
  });

  test("schedules a personalization's send_at and accepts batch_id, asm and ip_pool_name", async () => {
    const sendAt = Math.floor(Date.now() / 1000) + 3600;
    const [res] = await h.mail.send({
      from: FROM, subject: "later", text: "t", batchId: "batch1", ipPoolName: "default", asm: { groupId: 1, groupsToDisplay: [1, 2] },
      personalizations: [{ to: "later@dest.test", sendAt }],
    });
    expect(res.statusCode).toBe(202);
    const found = await h.t.app.activity.message("example.com", res.headers["x-message-id"]);
    expect(found!.recipients.map((r) => [r.email, r.nextAttemptAt])).toEqual([["later@dest.test", sendAt * 1000]]);
    expect(found!.message.extra).toEqual({ batchId: "batch1", asmGroupId: 1, ipPool: "default" });
  });

  test("sandbox mode validates, answers 200 and neither delivers nor stores anything", async () => {
    const [res, body] = await h.mail.send({ from: FROM, to: "sandbox@dest.test", subject: "s", text: "t", mailSettings: { sandboxMode: { enable: true } } });
    expect(res.statusCode).toBe(200);
    expect(body).toBe("");
    expect(await h.t.app.activity.message("example.com", res.headers["x-message-id"])).toBeNull();
    const bad = await h.mail.send({ from: FROM, to: "sandbox@dest.test", subject: "s", text: "", mailSettings: { sandboxMode: { enable: true } } }).catch((e) => e);
    expect(bad.code).toBe(400);
    // Give the scheduler time to deliver anything it might have had.
    await h.mail.send({ from: FROM, to: "after-sandbox@dest.test", subject: "s", text: "t" });
    await delivered("after-sandbox@dest.test");
    expect(h.sink.messages.filter((m) => m.to.includes("sandbox@dest.test"))).toHaveLength(0);
    expect(await eventsOf("sandbox@dest.test")).toHaveLength(0);
  });
});

describe("@sendgrid/client errors", () => {
  test("a bad key gets 401 in SendGrid's shape", async () => {
    const { mail } = h.clientsFor("sk.aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    const err = await mail.send({ from: FROM, to: "x@dest.test", subject: "s", text: "t" }).catch((e) => e);
    expect(err.code).toBe(401);
    expect(err.response.body).toEqual({ errors: [{ message: "The provided authorization grant is invalid, expired, or revoked", field: null, help: null }] });
  });

  test("an account key gets 403 access forbidden", async () => {
    const { mail } = h.clientsFor(h.t.accountKey);
    const err = await mail.send({ from: FROM, to: "x@dest.test", subject: "s", text: "t" }).catch((e) => e);
    expect(err.code).toBe(403);
    expect(err.response.body).toEqual({ errors: [{ message: "access forbidden", field: null, help: null }] });
  });

  test("a from outside the key's domain gets 403 with the Sender Identity message", async () => {
    const err = await h.mail.send({ from: "someone@elsewhere.test", to: "x@dest.test", subject: "s", text: "t" }).catch((e) => e);
    expect(err.code).toBe(403);
    expect(err.response.body.errors[0].field).toBe("from");
    expect(err.response.body.errors[0].message).toStartWith("The from address does not match a verified Sender Identity.");
  });

  test("the SDK's cc-only and empty-text requests get 400 with every problem listed", async () => {
    const err = await h.mail.send({ from: FROM, cc: "c@dest.test", subject: "s", text: "" }).catch((e) => e);
    expect(err.code).toBe(400);
    expect(err.response.body.errors.map((e: { field: string }) => e.field)).toEqual(["personalizations.0.to", "content.0.value"]);
    expect(err.toString()).toContain("personalizations.0.to");
  });

  test("client.request sends content_id (snake case) inline attachments too", async () => {
    const [res] = await h.client.request({
      method: "POST", url: "/v3/mail/send",
      body: { from: FROM, subject: "raw", personalizations: [{ to: [{ email: "rawcid@dest.test" }] }],
        content: [{ type: "text/plain", value: "t" }, { type: "text/html", value: '<img src="cid:pic">' }],
        attachments: [{ content: b64("GIF89a"), filename: "p.gif", type: "image/gif", disposition: "inline", content_id: "pic" }] },
    });
    expect(res.statusCode).toBe(202);
    const [msg] = await delivered("rawcid@dest.test");
    expect(msg!.email.attachments[0]).toMatchObject({ filename: "p.gif", contentId: "<pic>", disposition: "inline" });
  });
});
