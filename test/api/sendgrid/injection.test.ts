// Header injection through every field that ends up in a header line: refused with 400 (with the
// field blamed), or, where a value is legitimately free text (display names), neutralised on the wire.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { b64, eventually, parsedFor, startHarness, writeTemplate, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

type Body = Record<string, unknown>;
const INJECT = "x\r\nBcc: victim@evil.test";
const valid = (over: Body = {}): Body => ({
  from: { email: "alice@example.com" }, subject: "Hello", content: [{ type: "text/plain", value: "plain" }],
  personalizations: [{ to: [{ email: "bob@dest.test" }] }], ...over,
});

async function fieldsOf(body: Body): Promise<string[]> {
  const res = await h.t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
    method: "POST", body: JSON.stringify(body), headers: { authorization: `Bearer ${h.t.domainKey}` },
  }));
  expect(res.status).toBe(400);
  return ((await res.json()) as { errors: { field: string }[] }).errors.map((e: { field: string }) => e.field);
}

describe("header injection is refused", () => {
  const cases: [string, Body, string[]][] = [
    ["through the subject", valid({ subject: INJECT }), ["subject"]],
    ["through a personalization subject", valid({ personalizations: [{ to: [{ email: "b@dest.test" }], subject: INJECT }] }), ["personalizations.0.subject"]],
    ["through the from name", valid({ from: { email: "alice@example.com", name: INJECT } }), ["from.name"]],
    ["through a to name", valid({ personalizations: [{ to: [{ email: "b@dest.test", name: INJECT }] }] }), ["personalizations.0.to.0.name"]],
    ["through a cc name", valid({ personalizations: [{ to: [{ email: "b@dest.test" }], cc: [{ email: "c@dest.test", name: "a\nb" }] }] }), ["personalizations.0.cc.0.name"]],
    ["through a reply_to name", valid({ reply_to: { email: "r@example.com", name: INJECT } }), ["reply_to.name"]],
    ["through an address", valid({ personalizations: [{ to: [{ email: "b@dest.test\r\nBcc: v@evil.test" }] }] }), ["personalizations.0.to.0.email"]],
    ["through a header value", valid({ headers: { "X-Note": INJECT } }), ["headers.X-Note"]],
    ["through a header name", valid({ headers: { "X-Note: a\r\nBcc": "v@evil.test" } }), ["headers.X-Note: a\r\nBcc"]],
    ["through a personalization header", valid({ personalizations: [{ to: [{ email: "b@dest.test" }], headers: { "X-P": "a\rb" } }] }), ["personalizations.0.headers.X-P"]],
    ["by overriding reserved headers", valid({ headers: { Bcc: "v@evil.test", From: "x@evil.test", "Reply-To": "x@evil.test", "Content-Type": "text/html" } }),
      ["headers.Bcc", "headers.From", "headers.Content-Type", "headers.Reply-To"]],
    ["through an attachment filename", valid({ attachments: [{ content: b64("x"), filename: "a.txt\r\nX-Evil: 1" }] }), ["attachments.0.filename"]],
    ["through an attachment type", valid({ attachments: [{ content: b64("x"), filename: "a.txt", type: "text/plain\r\nX-Evil: 1" }] }), ["attachments.0.type"]],
    ["through a content_id", valid({ attachments: [{ content: b64("x"), filename: "a.png", disposition: "inline", content_id: "a>\r\nX-Evil: 1" }] }), ["attachments.0.content_id"]],
    ["through a content type", valid({ content: [{ type: "text/plain\r\nX-Evil: 1", value: "x" }] }), ["content.0.type"]],
    ["through a substitution into the subject", valid({ subject: "Hi -n-", personalizations: [{ to: [{ email: "b@dest.test" }], substitutions: { "-n-": INJECT } }] }),
      ["personalizations.0.subject"]],
    ["through a substitution into a header", valid({ headers: { "X-Name": "-n-" }, personalizations: [{ to: [{ email: "b@dest.test" }], substitutions: { "-n-": INJECT } }] }),
      ["personalizations.0.headers.X-Name"]],
  ];
  for (const [name, body, fields] of cases) test(name, async () => expect(await fieldsOf(body)).toEqual(fields));

  test("through template data rendered into the subject", async () => {
    writeTemplate(h.templatesDir, "inj", { subject: "Hi {{name}}", text: "t" });
    expect(await fieldsOf(valid({ template_id: "inj", personalizations: [{ to: [{ email: "b@dest.test" }], dynamic_template_data: { name: INJECT } }] })))
      .toEqual(["personalizations.0.subject"]);
  });
});

describe("free text is neutralised on the wire", () => {
  test("display names with quotes, commas, angle brackets and non-ASCII cannot add addresses", async () => {
    const res = await h.t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
      method: "POST", headers: { authorization: `Bearer ${h.t.domainKey}` },
      body: JSON.stringify(valid({
        from: { email: "alice@example.com", name: 'Evil" <boss@evil.test>, "Ünïcødé' },
        personalizations: [{ to: [{ email: "neutral@dest.test", name: "Doe, John <john@evil.test>" }] }],
        subject: "Grüße =?utf-8?q?x?= <b>",
      })),
    }));
    expect(res.status).toBe(202);
    const [msg] = await eventually(() => parsedFor(h.sink, "neutral@dest.test"), (l) => l.length > 0);
    expect(msg!.envelope.to).toEqual(["neutral@dest.test"]);
    expect(msg!.email.from).toMatchObject({ address: "alice@example.com", name: 'Evil" <boss@evil.test>, "Ünïcødé' });
    expect(msg!.email.to).toEqual([{ address: "neutral@dest.test", name: "Doe, John <john@evil.test>" }]);
    expect(msg!.email.subject).toBe("Grüße =?utf-8?q?x?= <b>");
    expect(msg!.head).not.toMatch(/^(bcc|x-evil):/im);
  });
});
