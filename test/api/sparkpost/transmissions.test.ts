import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { bodyOf, failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => { env = await startSpEnv(); });
afterAll(async () => { await env.close(); });

const from = { name: "News", email: "news@example.com" };

describe("POST /transmissions through the sparkpost client", () => {
  test("renders each recipient's substitution data, escaping {{ }} in html only", async () => {
    const res = await env.domain.transmissions.send({
      substitution_data: { shop: "Bits & Bobs", items: [{ name: "Jacket", price: 39.99 }, { name: "Gloves", price: 5 }] },
      metadata: { campaign: "fall" },
      recipients: [
        { address: { email: "ann@dest.test", name: "Ann" }, substitution_data: { first: "Ann", vip: true, note: "<b>hi</b>", user: { city: "Oslo" } } },
        { address: "Bob <bob@dest.test>", substitution_data: { first: "Bob", note: "<i>yo</i>" } },
      ],
      content: {
        from, subject: "Hi {{first}} from {{shop}}",
        text: "Hello {{first}} ({{address.email}}) in {{user.city or 'nowhere'}}\n{{if vip}}\nVIP\n{{else}}\nregular\n{{end}}\n{{each items}}\n- {{loop_var.name}}: {{loop_var.price}}\n{{end}}",
        html: "<p>{{note}} {{{note}}} {{shop}}</p>",
      },
    });
    expect(res.results).toMatchObject({ total_rejected_recipients: 0, total_accepted_recipients: 2 });
    expect(typeof res.results.id).toBe("string");
    const ann = await env.received("ann@dest.test");
    expect(ann.parsed.subject).toBe("Hi Ann from Bits & Bobs");
    expect(ann.parsed.text?.trim()).toBe("Hello Ann (ann@dest.test) in Oslo\nVIP\n- Jacket: 39.99\n- Gloves: 5");
    expect(ann.parsed.html).toContain("<p>&lt;b&gt;hi&lt;&#x2F;b&gt; <b>hi</b> Bits &amp; Bobs</p>");
    expect(ann.parsed.to?.[0]).toMatchObject({ address: "ann@dest.test", name: "Ann" });
    const bob = await env.received("bob@dest.test");
    expect(bob.parsed.subject).toBe("Hi Bob from Bits & Bobs");
    expect(bob.parsed.text).toContain("in nowhere\nregular");
    expect(bob.parsed.to?.[0]).toMatchObject({ address: "bob@dest.test", name: "Bob" });
    expect(bob.to).toEqual(["bob@dest.test"]);
  });

  test("the client's cc and bcc become header_to recipients: Cc shown, Bcc hidden, everyone delivered", async () => {
    const res = await env.domain.transmissions.send({
      recipients: [{ address: { email: "to@cc.test", name: "To Person" } }],
      cc: [{ address: { email: "cc@cc.test", name: "Cee" } }], bcc: [{ address: "bcc@cc.test" }],
      content: { from, subject: "copies", text: "same for all" },
    });
    expect(res.results.total_accepted_recipients).toBe(3);
    for (const rcpt of ["to@cc.test", "cc@cc.test", "bcc@cc.test"]) {
      const m = await env.received(rcpt);
      expect(m.parsed.to?.map((a) => a.address)).toEqual(["to@cc.test"]);
      expect(m.parsed.cc?.map((a) => a.address)).toEqual(["cc@cc.test"]);
      expect(m.raw.toString()).not.toMatch(/^bcc:/im);
      expect(m.raw.toString()).not.toContain("bcc@cc.test");
    }
  });

  test("every header_to recipient gets its own copy showing header_to and the CC header, delivered to it alone", async () => {
    const res = await env.domain.transmissions.send({
      recipients: [
        { address: { email: "p1@hdr.test" } },
        { address: { email: "p2@hdr.test" } },
        { address: { email: "c1@hdr.test", header_to: "P One <p1@hdr.test>, p2@hdr.test" }, substitution_data: { who: "cc" } },
        { address: { email: "b1@hdr.test", header_to: "p1@hdr.test" } },
      ],
      content: { from, subject: "for {{who or 'primary'}}", text: "t", headers: { CC: "c1@hdr.test, shown-only@hdr.test" } },
    });
    expect(res.results.total_accepted_recipients).toBe(4);
    const p2 = await env.received("p2@hdr.test");
    expect(p2.parsed.to?.map((a) => a.address)).toEqual(["p2@hdr.test"]);
    expect(p2.parsed.cc?.map((a) => a.address)).toEqual(["c1@hdr.test", "shown-only@hdr.test"]);
    const c1 = await env.received("c1@hdr.test");
    expect(c1.parsed.subject).toBe("for cc");
    expect(c1.parsed.to?.map((a) => a.address)).toEqual(["p1@hdr.test", "p2@hdr.test"]);
    expect(c1.to).toEqual(["c1@hdr.test"]);
    const b1 = await env.received("b1@hdr.test");
    expect(b1.parsed.to?.map((a) => a.address)).toEqual(["p1@hdr.test"]);
    expect(b1.raw.toString()).not.toContain("b1@hdr.test");
    expect(b1.raw.toString()).not.toMatch(/^bcc:/im);
    await Bun.sleep(300);
    expect(env.sink.messages.some((m) => m.to.includes("shown-only@hdr.test"))).toBe(false);
    expect(env.sink.messages.filter((m) => m.to.some((r) => r.endsWith("@hdr.test"))).every((m) => m.to.length === 1)).toBe(true);
  });

  test("attachments and inline images arrive as MIME parts", async () => {
    await env.domain.transmissions.send({
      recipients: [{ address: "files@dest.test" }],
      content: { from: "news@example.com", subject: "files", html: '<img src="cid:logo.png">',
        attachments: [{ name: "a.txt", type: "text/plain", data: Buffer.from("attached text").toString("base64") }],
        inline_images: [{ name: "logo.png", type: "image/png", data: Buffer.from("PNGDATA").toString("base64") }] },
    });
    const m = await env.received("files@dest.test");
    const att = m.parsed.attachments.find((a) => a.filename === "a.txt");
    expect(new TextDecoder().decode(att!.content as ArrayBuffer)).toBe("attached text");
    const img = m.parsed.attachments.find((a) => a.filename === "logo.png");
    expect(img?.contentId).toBe("<logo.png>");
    expect(img?.disposition).toBe("inline");
  });

  test("template_id renders the stored template files with SparkPost's language", async () => {
    writeFileSync(join(env.templatesDir, "welcome.subject"), "Welcome {{first}}\n");
    writeFileSync(join(env.templatesDir, "welcome.html"), "<h1>{{first}}</h1>{{if promo}}<p>{{promo}}</p>{{end}}");
    writeFileSync(join(env.templatesDir, "welcome.txt"), "Welcome {{first}}");
    const res = await env.domain.transmissions.send({
      recipients: [{ address: "tpl@dest.test", substitution_data: { first: "<Tia>" } }], substitution_data: { promo: "10% off" },
      content: { template_id: "welcome", from: "news@example.com" },
    });
    expect((await env.domain.transmissions.get(res.results.id)).results.transmission.content).toEqual({ template_id: "welcome" });
    const m = await env.received("tpl@dest.test");
    expect(m.parsed.subject).toBe("Welcome <Tia>");
    expect(m.parsed.html).toContain("<h1>&lt;Tia&gt;</h1><p>10% off</p>");
    expect(m.parsed.text?.trim()).toBe("Welcome <Tia>");
  });

  test("an unknown template_id is 422 1603", async () => {
    const err = await failure(env.domain.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { template_id: "nope", from: "a@example.com" } }));
    expect(err.statusCode).toBe(422);
    expect(err.errors[0]).toMatchObject({ code: "1603", description: "template 'nope' does not exist" });
  });

  test("email_rfc822 is sent as given, with substitutions", async () => {
    const raw = "From: News <news@example.com>\r\nTo: {{address.email}}\r\nSubject: Raw for {{first}}\r\n\r\nHi {{first}}\r\n";
    await env.domain.transmissions.send({ recipients: [{ address: "raw@dest.test", substitution_data: { first: "Rae" } }], content: { email_rfc822: raw } });
    const m = await env.received("raw@dest.test");
    expect(m.parsed.subject).toBe("Raw for Rae");
    expect(m.parsed.text?.trim()).toBe("Hi Rae");
    expect(m.parsed.to?.[0]?.address).toBe("raw@dest.test");
  });

  test("sandbox transmissions are accepted but not delivered; transmissions.get finds them", async () => {
    const res = await env.domain.transmissions.send({ options: { sandbox: true, inline_css: true }, campaign_id: "c1", description: "d",
      recipients: [{ address: "sandbox@dest.test", tags: ["t1"], metadata: { k: { nested: 1 } } }], content: { from, subject: "s", text: "t" } });
    const got = await env.domain.transmissions.get(res.results.id);
    expect(got.results.transmission).toMatchObject({ id: res.results.id, state: "Success", num_rcpts: 1, metadata: { k: '{"nested":1}' }, tags: ["t1"],
      campaign_id: "c1", description: "d" });
    await Bun.sleep(300);
    expect(env.sink.messages.some((m) => m.to.includes("sandbox@dest.test"))).toBe(false);
  });

  test("a start_time in the future schedules the transmission and it is listed, filtered by campaign_id", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
    const res = await env.domain.transmissions.send({ options: { start_time: at }, campaign_id: "later-camp", description: "later",
      recipients: [{ address: "later@dest.test" }], content: { from, subject: "s", text: "t" } });
    const list = await env.domain.transmissions.list({ campaign_id: "later-camp" });
    expect(list.results).toEqual([{ id: res.results.id, campaign_id: "later-camp", description: "later", state: "submitted", content: { template_id: "inline" } }]);
    expect((await env.domain.transmissions.list({ campaign_id: "other" })).results).toEqual([]);
    expect((await env.domain.transmissions.list({})).results.map((x: { id: string }) => x.id)).toContain(res.results.id);
    expect((await env.domain.transmissions.get(res.results.id)).results.transmission.state).toBe("submitted");
  });

  test("a transmission's id is its send: get counts every recipient, and a message id still finds it", async () => {
    const res = await env.domain.transmissions.send({ recipients: [{ address: "all1@dest.test", tags: ["a"] }, { address: "all2@dest.test" }],
      options: { sandbox: true }, content: { from, subject: "s", text: "t" } });
    const got = (await env.domain.transmissions.get(res.results.id)).results.transmission;
    expect(got).toMatchObject({ id: res.results.id, num_rcpts: 2, num_generated: 2 });
    const [event] = await env.t.app.store.zone("us").searchEvents({ recipient: "all2@dest.test", limit: 1 });
    expect((await env.domain.transmissions.get(event!.messageId)).results.transmission.id).toBe(res.results.id);
  });

  test("transmissions.get of an unknown id is 404 1600", async () => {
    const err = await failure(env.domain.transmissions.get("nothere"));
    expect(err.statusCode).toBe(404);
    expect(err.errors[0]!.code).toBe("1600");
  });

  test("recipients with different tags are all sent", async () => {
    const res = await env.domain.transmissions.send({ recipients: [{ address: "tag1@dest.test", tags: ["a"] }, { address: "tag2@dest.test", tags: ["b"] }],
      content: { from, subject: "s", text: "t" } });
    expect(res.results.total_accepted_recipients).toBe(2);
    await env.received("tag1@dest.test");
    await env.received("tag2@dest.test");
    const events = await env.t.app.store.zone("us").searchEvents({ recipient: "tag2@dest.test", limit: 5 });
    expect(events[0]!.tags).toEqual(["b"]);
  });
});

describe("POST /transmissions errors", () => {
  test("an unknown sending domain is 400 7001", async () => {
    const err = await failure(env.account.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from: "a@unknown.test", subject: "s", text: "t" } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual([{ description: "Unconfigured or unverified sending domain.", code: "7001", message: "Invalid domain" }]);
  });

  test("an unverified domain, and another domain's key, are 7001 too", async () => {
    await env.t.app.domains.add("fresh.test");
    const err = await failure(env.account.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from: "a@fresh.test", subject: "s", text: "t" } }));
    expect(err.errors[0]!.code).toBe("7001");
    await env.t.app.domains.verify("fresh.test", true);
    const other = await failure(env.domain.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from: "a@fresh.test", subject: "s", text: "t" } }));
    expect(other.errors[0]!.code).toBe("7001");
  });

  test("missing content, subject or body are 422 1400", async () => {
    const noContent = await failure(env.domain.transmissions.send({ recipients: [{ address: "x@dest.test" }] }));
    expect(noContent.statusCode).toBe(422);
    expect(noContent.errors[0]).toMatchObject({ code: "1400", message: "required field is missing" });
    const noSubject = await failure(env.domain.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from, text: "t" } }));
    expect(noSubject.errors[0]!.description).toBe("content.subject is required");
    const noBody = await failure(env.domain.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from, subject: "s" } }));
    expect(noBody.errors[0]!.code).toBe("1400");
  });

  test("a bad recipient beside good ones gives 200 with 2000 and rcpt_to_errors, capped by num_rcpt_errors", async () => {
    const res = await env.domain.transmissions.send({
      recipients: [{ address: "good@dest.test" }, { address: { name: "no email" } }, { address: "not an address" }, { address: "bad@@x" }],
      content: { from, subject: "s", text: "t" },
    }, { num_rcpt_errors: 2 });
    expect(res.errors).toEqual([{ message: "transmission created, but with validation errors", code: "2000" }]);
    expect(res.results).toMatchObject({ total_rejected_recipients: 3, total_accepted_recipients: 1 });
    expect(res.results.rcpt_to_errors).toHaveLength(2);
    expect(res.results.rcpt_to_errors[0]).toEqual({ message: "required field is missing", description: "address.email is required for each recipient", code: "1400" });
    await env.received("good@dest.test");
  });

  test("no valid recipient is 422", async () => {
    const err = await failure(env.domain.transmissions.send({ recipients: [{ address: "nope" }], content: { from, subject: "s", text: "t" } }));
    expect(err.statusCode).toBe(422);
    expect(err.errors[0]!.description).toContain("Invalid email address");
  });

  test("a single suppressed recipient is 400 1902 with results beside the errors", async () => {
    await env.t.app.suppressions.add("example.com", "bounces", [{ address: "gone@dest.test" }]);
    const err = await failure(env.domain.transmissions.send({ recipients: [{ address: "gone@dest.test" }], content: { from, subject: "s", text: "t" } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toMatchObject({ code: "1902", message: "Message generation rejected" });
    const raw = await env.call("POST", "/api/v1/transmissions", env.t.domainKey, { recipients: [{ address: "gone@dest.test" }], content: { from, subject: "s", text: "t" } });
    expect(raw.status).toBe(400);
    expect((await bodyOf(raw)).results).toMatchObject({ total_rejected_recipients: 0, total_accepted_recipients: 1 });
    const ok = await env.domain.transmissions.send({ options: { skip_suppression: true }, recipients: [{ address: "gone@dest.test" }], content: { from, subject: "s", text: "t" } });
    expect(ok.results.total_accepted_recipients).toBe(1);
  });

  test("no field can inject a header: subject, header values, substituted values, names, attachments", async () => {
    const base = { recipients: [{ address: "inject@dest.test" }], content: { from, subject: "s", text: "t" } };
    const cases: unknown[] = [
      { ...base, content: { ...base.content, subject: "hi\r\nBcc: evil@x.test" } },
      { ...base, content: { ...base.content, headers: { "X-A": "v\r\nBcc: evil@x.test" } } },
      { ...base, content: { ...base.content, headers: { "Bcc": "evil@x.test" } } },
      { ...base, content: { ...base.content, subject: "{{s}}" }, substitution_data: { s: "x\nBcc: evil@x.test" } },
      { ...base, content: { ...base.content, from: { email: "news@example.com", name: "N\r\nBcc: evil@x.test" } } },
      { ...base, content: { ...base.content, attachments: [{ name: "a\r\nBcc: e@x.test", type: "text/plain", data: "eA==" }] } },
    ];
    for (const body of cases) {
      const res = await env.call("POST", "/api/v1/transmissions", env.t.domainKey, body);
      expect(res.status).toBe(422);
      expect((await bodyOf(res)).errors[0].code).toBe("1300");
    }
    const named = await env.call("POST", "/api/v1/transmissions", env.t.domainKey, { ...base, recipients: [{ address: { email: "i2@dest.test", name: "x\r\nBcc: e@x.test" } }] });
    expect(named.status).toBe(422);
    expect(env.sink.messages.some((m) => m.to.includes("evil@x.test") || m.to.includes("e@x.test"))).toBe(false);
  });

  test("a domain's sending limit answers 420 2101 and sends nothing", async () => {
    await env.t.app.domains.add("limited.test", { limit: "1/hour" });
    await env.t.app.domains.verify("limited.test", true);
    const msg = { recipients: [{ address: "lim@dest.test" }], content: { from: "a@limited.test", subject: "s", text: "t" } };
    expect((await env.account.transmissions.send(msg)).results.total_accepted_recipients).toBe(1);
    const err = await failure(env.account.transmissions.send(msg));
    expect(err.statusCode).toBe(420);
    expect(err.errors[0]!.code).toBe("2101");
    expect(err.errors[0]!.message).toStartWith("Exceed Sending Limit");
  });

  test("a template syntax error is 422 naming the part", async () => {
    const err = await failure(env.domain.transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from, subject: "s", html: "{{if x}}no end" } }));
    expect(err.statusCode).toBe(422);
    expect(err.errors[0]!.description).toContain("content.html");
  });

  test("bad JSON is 400 and stored recipient lists are refused with 1603", async () => {
    const bad = await env.call("POST", "/api/v1/transmissions", env.t.domainKey, "{not json");
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).errors[0].code).toBe("1300");
    const list = await failure(env.domain.transmissions.send({ recipients: { list_id: "l1" }, content: { from, subject: "s", text: "t" } }));
    expect(list.errors[0]!.code).toBe("1603");
  });
});

describe("POST /transmissions acting for a tenant", () => {
  test("a key acting for a tenant sends from that tenant's domains only: another's is 7001 like an unknown one", async () => {
    const { default: SparkPost } = await import("sparkpost");
    const tenant = await env.t.app.tenants.add("tx-acme");
    await env.t.app.domains.add("tx-acme.test", { tenant: tenant.id });
    await env.t.app.domains.verify("tx-acme.test", true);
    const own = new SparkPost((await env.t.app.access.createKey({ kind: "account", tenant: tenant.id })).key, { origin: env.origin });
    const onBehalf = new SparkPost(env.t.accountKey, { origin: env.origin, headers: { "X-MSYS-SUBACCOUNT": String(tenant.id) } });
    const msg = (fromEmail: string) => ({ recipients: [{ address: "tenant-tx@dest.test" }], content: { from: fromEmail, subject: "s", text: "t" } });
    for (const client of [own, onBehalf]) {
      const err = await failure(client.transmissions.send(msg("a@example.com")));
      expect([err.statusCode, err.errors[0]!.code]).toEqual([400, "7001"]);
      expect((await client.transmissions.send(msg("a@tx-acme.test"))).results.total_accepted_recipients).toBe(1);
    }
    // Without the header the primary's key writes for the primary: the tenant's domain is not its.
    expect((await failure(env.account.transmissions.send(msg("a@tx-acme.test")))).errors[0]!.code).toBe("7001");
  });
});

