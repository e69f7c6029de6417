// Golden requests: the bodies @sendgrid/mail 8.1.6 produces (test/fixtures/requests/sendgrid)
// are accepted, and what is stored is what the wire asked for.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { decodeContent } from "../../../src/core/content.ts";
import { writeTemplate } from "./setup.ts";

setDefaultTimeout(60_000);
const FIXTURES = join(import.meta.dir, "../../fixtures/requests/sendgrid");
let t: TestApp;
let templatesDir: string;
beforeAll(async () => {
  templatesDir = mkdtempSync(join(tmpdir(), "postern-sg-golden-"));
  // sdk-full.json names ip_pool_name "pool": a configured pool (an unknown one is a 400).
  t = await makeTestApp({ toml: `[storage]\ntemplates_dir = "${templatesDir}"\n[mta.egress.main]\n[mta.pools.pool]\nsources = ["main"]\n` });
});
afterAll(async () => { await t.close(); rmSync(templatesDir, { recursive: true, force: true }); });

async function post(fixture: string) {
  const body = await Bun.file(join(FIXTURES, fixture)).text();
  return t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
    method: "POST", body, headers: { authorization: `Bearer ${t.domainKey}`, "content-type": "application/json", "x-custom-header": "custom" },
  }));
}

async function stored(id: string) {
  const found = (await t.app.activity.message("example.com", id))!;
  return { ...found, content: decodeContent(found.message.content!) };
}

describe("golden SendGrid requests", () => {
  test("the SDK's full request (every top-level field) is accepted and stored as asked", async () => {
    const res = await post("sdk-full.json");
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
    const { message, recipients, content } = await stored(res.headers.get("x-message-id")!);
    expect(message).toMatchObject({ from: "alice@example.com", subject: "Hello", tags: ["cat1", "cat2"], metadata: { orderId: "123" }, source: "sendgrid" });
    expect(recipients.map((r) => [r.email, r.kind])).toEqual([["bob@example.org", "to"], ["carol@example.org", "to"], ["dave@example.org", "cc"]]);
    expect(content.text).toBe("plain body Bob");
    expect(content.headers).toEqual({ "X-Custom-Header": "custom" });
    expect(content.replyTo).toEqual([{ email: "reply@example.com" }]);
    expect(content.tracking).toMatchObject({ opens: true, clicks: true });
    expect(content.attachments).toHaveLength(1);
  });

  test("the SDK's dynamic template request renders the stored template", async () => {
    writeTemplate(templatesDir, "d-123", { html: "<p>{{first}} {{nested.a}}</p>", text: "{{first}}/{{nested.a}}" });
    const res = await post("sdk-dynamic-template.json");
    expect(res.status).toBe(202);
    const { message, recipients, content } = await stored(res.headers.get("x-message-id")!);
    expect(message).toMatchObject({ from: "a@example.com", subject: "S1", metadata: { k: "v" } });
    expect(recipients[0]).toMatchObject({ email: "p1@example.org", nextAttemptAt: expect.any(Number) });
    expect(content).toMatchObject({ html: "<p>Y 1</p>", text: "Y/1", headers: { "X-P": "1" } });
    expect(content.replyTo).toEqual([{ email: "r1@example.com", name: "R1" }, { email: "r2@example.com" }]);
  });

  test("a template subject wins and may embed the request's subject and content (<%subject%>, <%body%>)", async () => {
    writeTemplate(templatesDir, "legacy", { subject: "[News] <%subject%>", html: "<div><%body%></div>" });
    const res = await t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
      method: "POST", headers: { authorization: `Bearer ${t.domainKey}` },
      body: JSON.stringify({ from: { email: "a@example.com" }, template_id: "legacy", subject: "Hi -name-",
        content: [{ type: "text/html", value: "<p>Dear -name-</p>" }],
        personalizations: [{ to: [{ email: "x@example.org" }], substitutions: { "-name-": "Xavier" } }] }),
    }));
    expect(res.status).toBe(202);
    const { message, content } = await stored(res.headers.get("x-message-id")!);
    expect(message.subject).toBe("[News] Hi Xavier");
    expect(content.html).toBe("<div><p>Dear Xavier</p></div>");
  });

  test("sections are filled in through substitutions, footers appended, non-body content attached", async () => {
    const res = await t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
      method: "POST", headers: { authorization: `Bearer ${t.domainKey}` },
      body: JSON.stringify({ from: { email: "a@example.com" }, subject: "s",
        content: [{ type: "text/plain", value: "Hello -greet-" }, { type: "text/html", value: "<body><p>-greet-</p></body>" },
          { type: "text/calendar; method=REQUEST", value: "BEGIN:VCALENDAR\r\nEND:VCALENDAR" }],
        sections: { "%morning%": "good morning, -name-" },
        mail_settings: { footer: { enable: true, text: "-- footer", html: "<hr>footer" } },
        personalizations: [{ to: [{ email: "s@example.org" }], substitutions: { "-greet-": "%morning%", "-name-": "Sam" } }] }),
    }));
    expect(res.status).toBe(202);
    const { content, message } = await stored(res.headers.get("x-message-id")!);
    expect(content.text).toBe("Hello good morning, Sam\n\n-- footer");
    expect(content.html).toBe("<body><p>good morning, Sam</p><hr>footer</body>");
    const atts = await t.app.store.zone("us").getAttachments(message.sendId);
    expect(atts.map((a) => [a.filename, a.contentType])).toEqual([["invite.ics", "text/calendar; method=REQUEST"]]);
  });
});
