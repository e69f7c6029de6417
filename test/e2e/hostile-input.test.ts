// Hostile input that reached the wire before: line breaks in address fields and in substitution
// data of raw messages, and a second From in a raw message. Every surface refuses them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

let t: TestApp;
let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  await t.app.domains.add("other.test");
  await t.app.domains.verify("other.test", true);
});
afterAll(async () => { await t.close(); await sink.close(); });

const call = (path: string, init: RequestInit) => t.app.http(new Request(`http://localhost${path}`, init));
const mailgun = (path: string, form: [string, string][]) => {
  const body = new FormData();
  for (const [k, v] of form) body.append(k, v);
  return call(path, { method: "POST", body, headers: { authorization: `Basic ${btoa(`api:${t.domainKey}`)}` } });
};
const sparkpost = (body: unknown) => call("/api/v1/transmissions", { method: "POST", body: JSON.stringify(body),
  headers: { authorization: t.domainKey, "content-type": "application/json" } });

describe("hostile input", () => {
  test("Mailgun: a line break in h:Reply-To is refused", async () => {
    const res = await mailgun("/v3/example.com/messages", [["from", "a@example.com"], ["to", "r@dest.test"], ["subject", "s"], ["text", "t"],
      ["h:Reply-To", "r@dest.test\r\nBcc: e@e.test"]]);
    expect(res.status).toBe(400);
  });

  test("Mailgun: messages.mime with a second From (another domain) is refused", async () => {
    const res = await mailgun("/v3/example.com/messages.mime", [["to", "m@dest.test"],
      ["message", "From: sender@example.com\r\nFrom: ceo@other.test\r\nSubject: m\r\n\r\nb\r\n"]]);
    expect(res.status).toBe(400);
  });

  test("native: a line break in reply_to is refused", async () => {
    const body = new FormData();
    for (const [k, v] of [["from", "a@example.com"], ["to", "r@dest.test"], ["subject", "s"], ["text", "t"], ["reply_to", "r@dest.test\r\nBcc: e@e.test"]]) body.append(k!, v!);
    const res = await call("/example.com/messages", { method: "POST", body, headers: { "ov-token": t.domainKey } });
    expect(res.status).toBe(400);
  });

  test("SparkPost: substitution data cannot add header lines to email_rfc822", async () => {
    const res = await sparkpost({ recipients: [{ address: "inj@dest.test", substitution_data: { x: "hello\r\nX-Injected: yes" } }],
      content: { email_rfc822: "From: news@example.com\r\nTo: inj@dest.test\r\nSubject: {{x}}\r\n\r\nbody" } });
    expect(res.status).toBe(422);
  });

  test("SparkPost: a substituted value ending in a blank line cannot push headers into the body", async () => {
    const res = await sparkpost({ recipients: [{ address: "inj2@dest.test", substitution_data: { x: "hi\r\nReply-To: evil@evil.test\r\n\r\n" } }],
      content: { email_rfc822: "From: news@example.com\r\nSubject: {{x}}\r\nTo: inj2@dest.test\r\n\r\nbody" } });
    expect(res.status).toBe(422);
  });

  test("SparkPost: email_rfc822 with a second From is refused", async () => {
    const res = await sparkpost({ recipients: [{ address: "x@dest.test" }], content: { email_rfc822: "From: news@example.com\r\nFrom: ceo@other.test\r\nSubject: s\r\n\r\nb" } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  test("SparkPost: a line break in the CC header is refused", async () => {
    const res = await sparkpost({ recipients: [{ address: "x@dest.test" }], content: { from: "news@example.com", subject: "s", text: "t",
      headers: { CC: "a@dest.test\r\nBcc: evil@evil.test" } } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  test("nothing of the above reached the sink", async () => {
    await Bun.sleep(200);
    expect(sink.messages.filter((m) => /X-Injected|evil@evil|e@e\.test|ceo@other/.test(m.raw.toString()))).toEqual([]);
  });
});

describe("verify keeps an active domain in service", () => {
  test("PUT /v4/domains/{d}/verify on a domain activated with --force leaves it active", async () => {
    const res = await call("/v4/domains/other.test/verify", { method: "PUT", headers: { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` } });
    expect(res.status).toBe(200);
    expect((await t.app.domains.get("other.test"))!.state).toBe("active");
  });
});
