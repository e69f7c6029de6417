import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { form, headerOf, parseMail, startNative, type NativeEnv } from "./setup.ts";
import { decodeContent } from "../../../src/core/content.ts";

// Delivery goes through a real SMTP sink on a shared, busy machine: be generous.
setDefaultTimeout(60_000);

let env: NativeEnv;
beforeAll(async () => {
  env = await startNative({
    templates: {
      "welcome.subject": "Welcome {{name}}",
      "welcome.html": "<p>Hello {{name}} on plan {{plan.level}} &amp; {{recipient.first}}</p>",
      "welcome.txt": "Hello {{name}} & %recipient.first%",
    },
  });
});
afterAll(async () => { await env.close(); });

const send = (fd: FormData | string, opts: { key?: string; domain?: string; type?: string } = {}) =>
  env.call(`/${opts.domain ?? "example.com"}/messages`, {
    method: "POST", body: fd, key: opts.key, headers: opts.type ? { "content-type": opts.type } : undefined,
  });

const storedId = (id: string) => id.replace(/^</, "").replace(/@.*$/, "");
const mailTo = (addr: string) => env.sink.messages.filter((m) => m.to.includes(addr));

async function waitForRcpt(addr: string, n = 1) {
  for (let i = 0; i < 1200 && mailTo(addr).length < n; i++) await Bun.sleep(25);
  return mailTo(addr);
}

describe("POST /{domain}/messages", () => {
  test("delivers every field of the form: addresses, bodies, files, custom headers and variables", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const res = await send(form([
      ["from", "News Desk <news@example.com>"], ["to", "a1@dest.test, A Two <a2@dest.test>"], ["to", "a3@dest.test"],
      ["cc", "c1@dest.test"], ["bcc", "b1@dest.test"], ["reply_to", "help@example.com"], ["subject", "All fields"],
      ["text", "plain body"], ["html", "<p>html body <img src=\"cid:logo.png\"></p>"], ["amp-html", "<html amp4email><body>amp</body></html>"],
      ["attachment", new Blob(["first file"], { type: "text/plain" }), "one.txt"],
      ["attachment", new Blob([png], { type: "application/octet-stream" }), "two.bin"],
      ["inline", new Blob([png], { type: "image/png" }), "logo.png"],
      ["h:X-Campaign", "spring"], ["v:order-id", "1234"], ["v:user", "{\"id\":7}"], ["o:tag", "news"], ["o:tag", "spring"],
    ]));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ id: expect.stringMatching(/^<[0-9a-z]{20}@mta\.test>$/), message: "Queued. Thank you." });
    // The MTA opens one transaction per recipient (each has its own VERP return path).
    for (const rcpt of ["a2@dest.test", "a3@dest.test", "b1@dest.test", "c1@dest.test"]) expect(await waitForRcpt(rcpt)).toHaveLength(1);
    const [msg] = await waitForRcpt("a1@dest.test");
    const mail = await parseMail(msg!.raw);
    expect(mail.from).toMatchObject({ address: "news@example.com", name: "News Desk" });
    expect(mail.to!.map((a) => a.address)).toEqual(["a1@dest.test", "a2@dest.test", "a3@dest.test"]);
    expect(mail.cc!.map((a) => a.address)).toEqual(["c1@dest.test"]);
    expect(mail.replyTo!.map((a) => a.address)).toEqual(["help@example.com"]);
    expect(msg!.raw.toString()).not.toMatch(/^bcc:/im);
    expect(mail.subject).toBe("All fields");
    expect(mail.text?.trim()).toBe("plain body");
    expect(mail.html).toContain("html body");
    expect(mail.messageId).toBe(body.id);
    const header = (name: string) => headerOf(mail, name);
    expect(header("x-campaign")).toBe("spring");
    expect(JSON.parse(header("x-mailgun-variables")!)).toEqual({ "order-id": "1234", user: "{\"id\":7}" });
    // postal-mime lists the AMP part (text/x-amp-html) among attachments too; it has no file name.
    const named = mail.attachments.filter((a) => a.filename).sort((x, y) => x.filename!.localeCompare(y.filename!));
    expect(named.map((a) => [a.filename, a.disposition, a.contentId ?? null])).toEqual([
      ["logo.png", "inline", "<logo.png>"], ["one.txt", "attachment", null], ["two.bin", "attachment", null]]);
    expect(new Uint8Array(named[2]!.content as ArrayBuffer)).toEqual(png);
    expect(mail.attachments.find((a) => a.mimeType === "text/x-amp-html")).toBeDefined();
    const stored = await env.t.app.store.zone("us").getMessage(storedId(body.id));
    expect(stored).toMatchObject({ tags: ["news", "spring"], metadata: { "order-id": "1234", user: "{\"id\":7}" }, source: "native" });
    expect(decodeContent(stored!.content!).amp).toContain("amp4email");
  });

  test("sends one message per recipient with recipient-variables (cc included, once), nested values substituted", async () => {
    const vars = { "r1@dest.test": { first: "Ann", deep: { code: 11 } }, "R2@dest.test": { first: "Bob", deep: { code: 22 } } };
    const res = await send(form([
      ["from", "news@example.com"], ["to", "r1@dest.test"], ["to", "r2@dest.test"], ["cc", "rc@dest.test"],
      ["subject", "Hi %recipient.first%"], ["text", "Code %recipient.deep.code% for %recipient.first%%recipient.missing%."],
      ["html", "<b>%recipient.first%</b>"], ["h:X-User", "%recipient.first%"], ["v:uid", "%recipient.deep.code%"],
      ["recipient-variables", JSON.stringify(vars)],
    ]));
    expect(res.status).toBe(200);
    const [one] = await waitForRcpt("r1@dest.test");
    const [two] = await waitForRcpt("r2@dest.test");
    await waitForRcpt("rc@dest.test", 1);
    await Bun.sleep(300);
    expect(mailTo("rc@dest.test")).toHaveLength(1);
    const a = await parseMail(one!.raw);
    const b = await parseMail(two!.raw);
    expect(a.to!.map((x) => x.address)).toEqual(["r1@dest.test"]);
    expect([a.subject, a.text?.trim(), b.subject, b.text?.trim()]).toEqual(["Hi Ann", "Code 11 for Ann.", "Hi Bob", "Code 22 for Bob."]);
    expect(a.html).toContain("<b>Ann</b>");
    expect(headerOf(b, "x-user")).toBe("Bob");
    expect(headerOf(b, "x-mailgun-variables")).toBe("{\"uid\":\"22\"}");
  });

  test("renders a stored template with template_variables, v: variables and recipient variables", async () => {
    const res = await send(form([
      ["from", "news@example.com"], ["to", "t1@dest.test"], ["template", "welcome"],
      ["template_variables", JSON.stringify({ name: "Tess & co" })], ["v:plan", "{\"level\":\"gold\"}"],
      ["recipient-variables", JSON.stringify({ "t1@dest.test": { first: "T1" } })],
    ]));
    expect(res.status).toBe(200);
    const mail = await parseMail((await waitForRcpt("t1@dest.test"))[0]!.raw);
    expect(mail.subject).toBe("Welcome Tess & co");
    expect(mail.html).toContain("Hello Tess &amp; co on plan gold &amp; T1");
    expect(mail.text?.trim()).toBe("Hello Tess & co & T1");
  });

  test("accepts a url-encoded body and a JSON body too", async () => {
    const urlencoded = new URLSearchParams([["from", "a@example.com"], ["to", "u1@dest.test"], ["text", "x"]]).toString();
    expect((await send(urlencoded, { type: "application/x-www-form-urlencoded" })).status).toBe(200);
    const json = JSON.stringify({ from: "a@example.com", to: ["j1@dest.test", "j2@dest.test"], text: "x", "o:tag": "t",
      "recipient-variables": { "j1@dest.test": { n: 1 } } });
    expect((await send(json, { type: "application/json" })).status).toBe(200);
    expect(await waitForRcpt("j2@dest.test")).toHaveLength(1);
  });

  test("keeps o:testmode messages from delivery and applies tracking options and callback_url", async () => {
    const res = await send(form([["from", "a@example.com"], ["to", "tm@dest.test"], ["html", "<a href=\"https://x.test/\">x</a>"],
      ["o:testmode", "yes"], ["o:tracking", "no"], ["o:tracking-opens", "yes"], ["callback_url", "https://hooks.example.org/cb"]]));
    expect(res.status).toBe(200);
    const id = storedId((await res.json()).id);
    const zone = env.t.app.store.zone("us");
    expect((await zone.listRecipients(id)).map((r) => r.status)).toEqual(["test"]);
    const stored = (await zone.getMessage(id))!;
    expect(stored).toMatchObject({ isTest: true, callbackUrl: "https://hooks.example.org/cb" });
    expect(decodeContent(stored.content!).tracking).toMatchObject({ opens: true, clicks: false });
  });

  test("accepts a domain key for its own domain only; other domains answer 404", async () => {
    const fd = () => form([["from", "a@other.test"], ["to", "dk@dest.test"], ["text", "x"]]);
    expect((await send(fd(), { key: env.otherKey, domain: "other.test" })).status).toBe(200);
    expect((await send(fd(), { key: env.t.domainKey, domain: "other.test" })).status).toBe(404);
    expect((await send(fd(), { domain: "nowhere.test" })).status).toBe(404);
    expect((await send(fd(), { domain: "other.test" })).status).toBe(200);
  });

  test("refuses to send for a domain that is not active", async () => {
    await env.t.app.domains.add("pending.test");
    const res = await send(form([["from", "a@pending.test"], ["to", "p@dest.test"], ["text", "x"]]), { domain: "pending.test" });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toContain("unverified");
  });
});

describe("POST /{domain}/messages refuses malformed input with 400", () => {
  const base: [string, string][] = [["from", "a@example.com"], ["to", "x@dest.test"], ["text", "body"]];
  const cases: [string, [string, string][], string][] = [
    ["a missing from", [["to", "x@dest.test"], ["text", "b"]], "from is required"],
    ["a missing to", [["from", "a@example.com"], ["text", "b"]], "to is required"],
    ["a bad to address", [...base, ["to", "not an address"]], "to: \"not an address\" is not a valid address"],
    ["a from of another domain", [["from", "a@elsewhere.test"], ["to", "x@dest.test"], ["text", "b"]], "from.email: the from address must belong to example.com"],
    ["a subject with a line break", [...base, ["subject", "hi\r\nBcc: victim@dest.test"]], "subject"],
    ["a display name with a line break", [["from", "\"Evil\r\nBcc: v@dest.test\" <a@example.com>"], ["to", "x@dest.test"], ["text", "b"]], "from"],
    ["a header value with a line break", [...base, ["h:X-Note", "a\r\nBcc: victim@dest.test"]], "X-Note"],
    ["a recipient variable that injects a line break", [...base, ["subject", "Hi %recipient.n%"], ["h:X-N", "%recipient.n%"],
      ["recipient-variables", JSON.stringify({ "x@dest.test": { n: "a\r\nBcc: victim@dest.test" } })]], "subject"],
    ["a header postern owns", [...base, ["h:Subject", "spoof"]], "Subject"],
    ["an invalid header name", [...base, ["h:Bad Name", "x"]], "Bad Name"],
    ["a domain field for another domain", [...base, ["domain", "other.test"]], "domain"],
    ["an unknown template", [...base, ["template", "nope"]], "template \"nope\" not found"],
    ["a template path", [...base, ["template", "../etc/passwd"]], "not a valid template name"],
    ["template_variables that are not JSON", [...base, ["template_variables", "{oops"]], "template_variables must be a JSON object"],
    ["recipient-variables that are not an object", [...base, ["recipient-variables", "[1,2]"]], "recipient-variables must be a JSON object"],
    ["a bad o:testmode", [...base, ["o:testmode", "maybe"]], "o:testmode must be yes or no"],
    ["a bad o:tracking-clicks", [...base, ["o:tracking-clicks", "sometimes"]], "o:tracking-clicks"],
    ["a callback_url that is not http", [...base, ["callback_url", "ftp://x.test/"]], "callback_url must be an http or https URL"],
    ["no body at all", [["from", "a@example.com"], ["to", "x@dest.test"]], "a text or html body is required"],
    ["an attachment sent as text", [...base, ["attachment", "not a file"]], "attachment must be a file"],
  ];
  for (const [name, pairs, message] of cases) {
    test(name, async () => {
      const res = await send(form(pairs));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.status).toBe(400);
      expect(body.message).toContain(message);
    });
  }

  test("a body that is not a form", async () => {
    const res = await send("hello", { type: "text/plain" });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("multipart/form-data");
    const broken = await send("--zz\r\nbroken", { type: "multipart/form-data; boundary=zz" });
    expect(broken.status).toBe(400);
  });
});
