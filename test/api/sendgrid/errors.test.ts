// Every 400 rule of the mail/send error table (and SendGrid's own limits), called in-process:
// each case lists the exact fields blamed, so a request with several mistakes names them all.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { b64 } from "./setup.ts";

setDefaultTimeout(60_000);
let t: TestApp;
beforeAll(async () => { t = await makeTestApp(); });
afterAll(async () => { await t.close(); });

type Body = Record<string, unknown>;
type Errors = { errors: { message: string; field: string | null; help: string | null }[] };
const errorsOf = async (res: Response): Promise<Errors> => (await res.json()) as Errors;
const send = (body: unknown, init: { key?: string; raw?: string; headers?: Record<string, string> } = {}) =>
  t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
    method: "POST", body: init.raw ?? JSON.stringify(body),
    headers: { authorization: `Bearer ${init.key ?? t.domainKey}`, "content-type": "application/json", ...init.headers },
  }));

const valid = (over: Body = {}): Body => ({
  from: { email: "alice@example.com", name: "Alice" }, subject: "Hello",
  content: [{ type: "text/plain", value: "plain" }, { type: "text/html", value: "<p>html</p>" }],
  personalizations: [{ to: [{ email: "bob@dest.test" }] }],
  mail_settings: { sandbox_mode: { enable: true } },
  ...over,
});
const to = (...emails: string[]) => emails.map((email) => ({ email }));

async function fieldsOf(body: unknown, init?: Parameters<typeof send>[1]): Promise<(string | null)[]> {
  const res = await send(body, init);
  const json = await errorsOf(res);
  expect(res.status).toBe(400);
  for (const e of json.errors) {
    expect(typeof e.message).toBe("string");
    if (e.field) expect(e.help).toStartWith("http://sendgrid.com/docs/API_Reference/Web_API_v3/Mail/errors.html#message.");
  }
  return json.errors.map((e: { field: string | null }) => e.field);
}

describe("the spec's error table: 400 with dotted field paths", () => {
  test("the valid baseline passes (sandbox: 200)", async () => {
    expect((await send(valid())).status).toBe(200);
  });

  const cases: [string, Body, (string | null)[]][] = [
    ["invalid from address", valid({ from: { email: "not-an-address" } }), ["from.email"]],
    ["missing from", valid({ from: undefined }), ["from"]],
    ["from without email", valid({ from: { name: "x" } }), ["from.email"]],
    ["invalid address in to", valid({ personalizations: [{ to: to("ok@dest.test", "bad@") }] }), ["personalizations.0.to.1.email"]],
    ["invalid address in cc", valid({ personalizations: [{ to: to("ok@dest.test"), cc: to("x@dest.test", "y@dest.test", "nope") }] }), ["personalizations.0.cc.2.email"]],
    ["invalid address in bcc", valid({ personalizations: [{ to: to("ok@dest.test") }, { to: to("b@dest.test"), bcc: to("a b@dest.test") }] }), ["personalizations.1.bcc.0.email"]],
    ["to item without email", valid({ personalizations: [{ to: [{ name: "Bob" }] }] }), ["personalizations.0.to.0.email"]],
    ["invalid personalization from", valid({ personalizations: [{ to: to("ok@dest.test"), from: { email: "@example.com" } }] }), ["personalizations.0.from.email"]],
    ["personalization from domain differs from the top-level from",
      valid({ personalizations: [{ to: to("ok@dest.test") }, { to: to("ok@dest.test"), from: { email: "a@other.test" } }] }), ["personalizations.1.from.email"]],
    ["invalid reply_to", valid({ reply_to: { email: "reply@" } }), ["reply_to.email"]],
    ["invalid reply_to_list item", valid({ reply_to_list: [{ email: "r@example.com" }, { email: "x" }] }), ["reply_to_list.1.email"]],
    ["reply_to and reply_to_list together", valid({ reply_to: { email: "r@example.com" }, reply_to_list: [{ email: "s@example.com" }] }), ["reply_to_list"]],
    ["no personalizations", valid({ personalizations: [] }), ["personalizations"]],
    ["personalizations missing", valid({ personalizations: undefined }), ["personalizations"]],
    ["empty to (the SDK's cc-only request)", valid({ personalizations: [{ to: [], cc: to("c@dest.test") }] }), ["personalizations.0.to"]],
    ["same address twice in one personalization", valid({ personalizations: [{ to: to("d@dest.test"), bcc: to("D@dest.test") }] }), ["personalizations.0.bcc.0.email"]],
    ["no subject anywhere", valid({ subject: undefined }), ["subject"]],
    ["a subject in only some personalizations", valid({ subject: undefined, personalizations: [{ to: to("a@dest.test"), subject: "s" }, { to: to("b@dest.test") }] }), ["subject"]],
    ["a malformed personalization subject is blamed once", valid({ subject: undefined, personalizations: [{ to: to("a@dest.test"), subject: 5 }] }), ["personalizations.0.subject"]],
    ["no content and no template", valid({ content: undefined }), ["content"]],
    ["empty content value (the SDK's text: '')", valid({ content: [{ type: "text/plain", value: "" }] }), ["content.0.value"]],
    ["html before text", valid({ content: [{ type: "text/html", value: "<p>h</p>" }, { type: "text/plain", value: "p" }] }), ["content.1.type"]],
    ["content type missing", valid({ content: [{ value: "x" }] }), ["content.0.type"]],
    ["a category over 64 characters", valid({ categories: ["ok", "x".repeat(65)] }), ["categories.1"]],
    ["more than 10 categories", valid({ categories: Array.from({ length: 11 }, (_, i) => `c${i}`) }), ["categories"]],
    ["attachment not base64 and without filename", valid({ attachments: [{ content: "***" }] }), ["attachments.0.content", "attachments.0.filename"]],
    ["attachment with a bad disposition", valid({ attachments: [{ content: b64("x"), filename: "a.txt", disposition: "sideways" }] }), ["attachments.0.disposition"]],
    ["unknown template", valid({ template_id: "d-nothing-here", content: undefined }), ["template_id"]],
    ["template id that is a path", valid({ template_id: "../etc/passwd" }), ["template_id"]],
    ["send_at more than 72 hours ahead", valid({ send_at: Math.floor(Date.now() / 1000) + 80 * 3600 }), ["send_at"]],
    ["send_at not an integer", valid({ personalizations: [{ to: to("a@dest.test"), send_at: "soon" }] }), ["personalizations.0.send_at"]],
    ["custom_args of 10,000 bytes", valid({ custom_args: { big: "x".repeat(10_000) } }), ["custom_args"]],
    ["custom_args with an object value", valid({ custom_args: { nested: { a: 1 } } }), ["custom_args.nested"]],
    ["asm without group_id", valid({ asm: { groups_to_display: [1] } }), ["asm.group_id"]],
    ["ip_pool_name too short", valid({ ip_pool_name: "x" }), ["ip_pool_name"]],
    ["callback_url not http", valid({ callback_url: "ftp://x" }), ["callback_url"]],
    ["sandbox_mode.enable not a boolean", valid({ mail_settings: { sandbox_mode: { enable: "yes" } } }), ["mail_settings.sandbox_mode.enable"]],
    ["tracking enable not a boolean", valid({ tracking_settings: { click_tracking: { enable: 1 } } }), ["tracking_settings.click_tracking.enable"]],
  ];
  for (const [name, body, fields] of cases) test(name, async () => expect(await fieldsOf(body)).toEqual(fields));

  test("a request with many mistakes lists every one of them", async () => {
    const body = {
      from: { email: "nope" }, reply_to: { email: "bad" },
      personalizations: [{ to: to("x@dest.test", "y@"), cc: to("z") }, { to: [] }, { to: to("ok@dest.test"), from: { email: "f@" } }],
      content: [{ type: "text/plain", value: "" }], categories: ["y".repeat(70)],
    };
    expect(await fieldsOf(body)).toEqual([
      "from.email", "personalizations.0.to.1.email", "personalizations.0.cc.0.email", "personalizations.1.to",
      "personalizations.2.from.email", "subject", "reply_to.email", "content.0.value", "categories.0",
    ]);
  });

  test("more than 1000 personalizations", async () => {
    const personalizations = Array.from({ length: 1001 }, (_, i) => ({ to: to(`p${i}@dest.test`) }));
    expect(await fieldsOf(valid({ personalizations }))).toEqual(["personalizations"]);
  });

  test("more than 1000 recipients in total", async () => {
    const personalizations = [0, 1].map((p) => ({ to: to(...Array.from({ length: 501 }, (_, i) => `r${p}-${i}@dest.test`)) }));
    expect(await fieldsOf(valid({ personalizations }))).toEqual(["personalizations"]);
  });

  test("a body that is not JSON, or not an object, is one 400 without a field", async () => {
    for (const raw of ["{not json", "[1,2]", "\"text\"", ""]) {
      const res = await send(null, { raw });
      expect(res.status).toBe(400);
      const { errors } = await errorsOf(res);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.field).toBeNull();
    }
  });

  test("errors carry SendGrid's help link derived from the field", async () => {
    const res = await send(valid({ personalizations: [{ to: to("bad") }] }));
    expect(await errorsOf(res)).toEqual({ errors: [{ message: "Does not contain a valid address.", field: "personalizations.0.to.0.email",
      help: "http://sendgrid.com/docs/API_Reference/Web_API_v3/Mail/errors.html#message.personalizations.to" }] });
  });
});

describe("403, 413 and 402", () => {
  test("an account key is refused with 403 access forbidden", async () => {
    const res = await send(valid(), { key: t.accountKey });
    expect(res.status).toBe(403);
    expect(await errorsOf(res)).toEqual({ errors: [{ message: "access forbidden", field: null, help: null }] });
  });

  test("a from of another domain, or of an inactive domain, is refused with the Sender Identity message", async () => {
    const other = await send(valid({ from: { email: "a@sub.example.com" } }));
    expect(other.status).toBe(403);
    expect((await errorsOf(other)).errors[0]).toMatchObject({ field: "from", message: expect.stringContaining("verified Sender Identity") });
    await t.app.domains.add("inactive.test");
    const key = (await t.app.access.createKey({ kind: "domain", domain: "inactive.test" })).key;
    const res = await send(valid({ from: { email: "a@inactive.test" } }), { key });
    expect(res.status).toBe(403);
    expect((await errorsOf(res)).errors[0]!.field).toBe("from");
  });

  test("a message over 30 MB is refused with 413", async () => {
    const big = Buffer.alloc(31 * 1024 * 1024, 7);
    const res = await send(valid({ attachments: [{ content: big.toString("base64"), filename: "big.bin" }] }));
    expect(res.status).toBe(413);
    expect(await errorsOf(res)).toEqual({ errors: [{ message: "content too large", field: null, help: null }] });
  });

  test("a body declared larger than any message is refused before it is read", async () => {
    const res = await send(null, { raw: "{}", headers: { "content-length": String(60 * 1024 * 1024) } });
    expect(res.status).toBe(413);
  });

  test("402 once the domain's sending limit is used up", async () => {
    const u = await makeTestApp({ domain: "limited.test" });
    try {
      await u.app.domains.set("limited.test", { limit: "2/day" });
      const call = () => u.app.http(new Request("http://127.0.0.1/v3/mail/send", {
        method: "POST", headers: { authorization: `Bearer ${u.domainKey}` },
        body: JSON.stringify(valid({ from: { email: "a@limited.test" }, mail_settings: undefined })),
      }));
      expect((await call()).status).toBe(202);
      expect((await call()).status).toBe(202);
      const res = await call();
      expect(res.status).toBe(402);
      expect((await errorsOf(res)).errors[0]!.message).toContain("sending limit");
    } finally {
      await u.close();
    }
  });

  test("an unexpected failure is a 500 in SendGrid's shape, without internals", async () => {
    const original = t.app.sender.send;
    t.app.sender.send = async () => { throw new Error("disk on fire at /var/lib/secret"); };
    try {
      const res = await send(valid({ mail_settings: undefined }));
      expect(res.status).toBe(500);
      // The message names the request id (the log line carries it too), nothing of the failure itself.
      const id = res.headers.get("x-request-id");
      expect(await errorsOf(res)).toEqual({ errors: [{ message: `internal server error (request id ${id})`, field: null, help: null }] });
    } finally {
      t.app.sender.send = original;
    }
  });
});

describe("methods", () => {
  test("other methods on /v3/mail/send answer 405 in SendGrid's shape", async () => {
    const res = await t.app.http(new Request("http://127.0.0.1/v3/mail/send", { method: "GET", headers: { authorization: `Bearer ${t.domainKey}` } }));
    expect(res.status).toBe(405);
    expect(((await res.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe("method not allowed");
  });
});
