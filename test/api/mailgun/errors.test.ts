import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
beforeAll(async () => {
  h = await startHarness();
  await h.t.app.domains.add("other.com");
  await h.t.app.domains.verify("other.com", true);
});
afterAll(async () => { await h.close(); });

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const send = (fields: Record<string, string>, key?: string, domain = "example.com") =>
  h.call("POST", `/v3/${domain}/messages`, { body: form(fields), key });
const ok = { from: "a@example.com", to: "r@dest.test", subject: "s", text: "t" };

describe("Mailgun error shapes", () => {
  test("a bad key is 401 with the plain-text body Forbidden, as mailgun.js reports it", async () => {
    const err = await h.client("sk.000000000000.nope").messages.create("example.com", ok).catch((e) => e);
    expect(err).toMatchObject({ status: 401, details: "Forbidden", type: "MailgunAPIError" });
    const res = await send(ok, "pk.wrong.wrong");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toStartWith("text/plain");
    expect(await res.text()).toBe("Forbidden");
  });

  test("an unknown domain is 404 with a message", async () => {
    const res = await send(ok, undefined, "nowhere.test");
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toEqual({ message: "domain nowhere.test not found" });
    const err = await h.mg.domains.get("nowhere.test").catch((e) => e);
    expect(err).toMatchObject({ status: 404, details: "domain nowhere.test not found" });
  });

  test("an unknown path is 404 in the message shape", async () => {
    const res = await h.call("GET", "/v3/example.com/nothing-here");
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toHaveProperty("message");
  });

  const cases: [string, Record<string, string>, string][] = [
    ["no from", { to: "r@dest.test", text: "t" }, "from parameter is missing"],
    ["no to", { from: "a@example.com", text: "t" }, "to parameter is missing"],
    ["no body", { from: "a@example.com", to: "r@dest.test" }, "Need at least one of 'text' or 'html' parameters specified"],
    ["a bad to address", { ...ok, to: "not-an-address" }, "to parameter is not a valid address. please check documentation"],
    ["a from of another domain", { ...ok, from: "a@elsewhere.test" }, "the from address must belong to example.com"],
    ["bad recipient-variables", { ...ok, "recipient-variables": "{nope" }, "'recipient-variables' parameter is not a valid JSON"],
    ["a bad yes/no", { ...ok, "o:testmode": "perhaps" }, 'o:testmode must be yes or no, got "perhaps"'],
    ["eleven tags", { ...ok }, "Too many tags: at most 10 o:tag values per message"],
  ];
  for (const [name, fields, message] of cases) {
    test(`${name} is 400 {"message": "${message}"}`, async () => {
      const body = form(fields);
      if (name === "eleven tags") for (let i = 0; i < 11; i++) body.append("o:tag", `t${i}`);
      const res = await h.call("POST", "/v3/example.com/messages", { body });
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({ message });
    });
  }

  test("no field can inject a header: h: values, subject and display names with CR/LF are refused", async () => {
    const before = h.sink.messages.length;
    const attempts = [
      { ...ok, "h:X-Evil": "a\r\nBcc: victim@dest.test" },
      { ...ok, subject: "hi\r\nBcc: victim@dest.test" },
      { ...ok, from: '"Eve\r\nBcc: victim@dest.test" <a@example.com>' },
      { ...ok, "h:Bad Name": "x" },
      { ...ok, "h:Subject": "override" },
      { ...ok, "recipient-variables": JSON.stringify({ "r@dest.test": { s: "x\r\nBcc: victim@dest.test" } }), subject: "%recipient.s%" },
    ];
    for (const fields of attempts) {
      const res = await send(fields);
      expect(res.status).toBe(400);
      expect(Object.keys(await jsonOf(res))).toEqual(["message"]);
    }
    const mime = await h.call("POST", "/v3/example.com/messages.mime", { body: form({ to: "r@dest.test", message: "From: a@example.com\r\nSubject: s\r\n\r\nb", "h:X-Evil": "a\r\nBcc: v@dest.test" }) });
    expect(mime.status).toBe(400);
    await Bun.sleep(200);
    expect(h.sink.messages.length).toBe(before);
  });

  test("a domain key sends only for its own domain and may not call the other endpoints", async () => {
    expect((await send(ok, h.t.domainKey)).status).toBe(200);
    const other = await send({ ...ok, from: "a@other.com" }, h.t.domainKey, "other.com");
    expect(other.status).toBe(403);
    expect(await jsonOf(other)).toHaveProperty("message");
    const dk = h.client(h.t.domainKey);
    for (const call of [() => dk.domains.list(), () => dk.suppressions.list("example.com", "bounces"), () => dk.webhooks.list("example.com", {}),
      () => dk.validate.get("a@example.com"), () => dk.stats.getDomain("example.com", { event: ["delivered"] })]) {
      const err = await call().catch((e) => e);
      expect(err.status).toBe(403);
      expect(err.details).toContain("domain sending keys may only send messages");
    }
  });

  test("a sending limit answers 402 with a message", async () => {
    await h.t.app.domains.set("other.com", { limit: "1/day" });
    expect((await send({ ...ok, from: "a@other.com" }, undefined, "other.com")).status).toBe(200);
    const res = await send({ ...ok, from: "a@other.com" }, undefined, "other.com");
    expect(res.status).toBe(402);
    expect((await jsonOf(res)).message).toContain("sending limit");
  });

  test("a request above 52.4 MiB is 413", async () => {
    const res = await h.call("POST", "/v3/example.com/messages", {
      body: "x=1", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(60 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(await jsonOf(res)).toEqual({ message: "request size exceeds 52.4MiB limit" });
  });
});

describe("content-type quirks of the reference", () => {
  test("GET and DELETE with a form content type and an empty body parse", async () => {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    expect((await h.call("GET", "/v3/example.com/bounces", { headers })).status).toBe(200);
    expect((await h.call("DELETE", "/v3/example.com/bounces", { headers, body: "" })).status).toBe(200);
    expect((await h.call("GET", "/v4/domains", { headers: { "content-type": "multipart/form-data; boundary=x" } })).status).toBe(200);
    // (Verifying without DNS records leaves a domain unverified, so not the sending domain.)
    await h.t.app.domains.add("verify-me.test");
    expect((await h.call("PUT", "/v4/domains/verify-me.test/verify", { headers, body: "" })).status).toBe(200);
  });

  test("urlencoded sends (curl without files) keep repeated keys", async () => {
    const body = new URLSearchParams([["from", "a@example.com"], ["to", "u1@dest.test"], ["to", "u2@dest.test"], ["subject", "urlencoded"], ["text", "t"]]);
    const res = await h.call("POST", "/v3/example.com/messages", { body });
    expect(res.status).toBe(200);
    const { id } = await jsonOf(res);
    const stored = await h.t.app.activity.message("example.com", id.replace(/^<|@.*$/g, ""));
    expect(stored!.recipients.map((r) => r.email)).toEqual(["u1@dest.test", "u2@dest.test"]);
  });

  test("a JSON body that does not parse is 400, not 500", async () => {
    const res = await h.call("POST", "/v3/example.com/bounces", { body: "[{oops", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ message: "the request body could not be parsed" });
  });
});
