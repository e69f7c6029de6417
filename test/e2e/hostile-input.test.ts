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

// The fixed list of malformed requests: each must get the mirrored API's 4xx (or a 2xx), never a
// 5xx, and never a stack trace.
const auth = {
  sendgrid: () => ({ authorization: `Bearer ${t.domainKey}` }),
  mailgun: () => ({ authorization: `Basic ${btoa(`api:${t.accountKey}`)}` }),
  sparkpost: () => ({ authorization: t.accountKey }),
  native: () => ({ "ov-token": t.accountKey }),
};

/** One raw HTTP/1.1 exchange on the real listener (a Host no fetch client would send). */
async function raw(address: string, head: string): Promise<{ status: number; text: string }> {
  const [host, port] = [address.slice(0, address.lastIndexOf(":")), Number(address.slice(address.lastIndexOf(":") + 1))];
  let text = "";
  const done = Promise.withResolvers<void>();
  const socket = await Bun.connect({ hostname: host, port, socket: {
    data(_s, d) { text += d.toString(); }, close() { done.resolve(); }, error() { done.resolve(); }, open() {},
  } });
  socket.write(`${head}Connection: close\r\n\r\n`);
  await done.promise;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text };
}

describe("malformed requests get 4xx in the surface's shape", () => {
  test("a well-formed Host (any name, a port, an IP literal) routes on the path", async () => {
    const http = (await t.app.start()).http!;
    try {
      for (const host of ["x", "ab", "x:8080", "[::1]:80", "mail.example.com:"]) {
        expect((await raw(http, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`)).status).toBe(200);
        expect((await raw(http, `GET /domains HTTP/1.1\r\nHost: ${host}\r\n`)).status).toBe(401);
        const listed = await raw(http, `GET /domains HTTP/1.1\r\nHost: ${host}\r\nov-token: ${t.accountKey}\r\n`);
        expect(listed.status).toBe(200);
        expect(listed.text).toContain("example.com");
      }
    } finally {
      await t.app.stop();
      t = await makeTestApp({ dir: t.dir, keepDir: true, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    }
  });

  test("a missing, empty, repeated or malformed Host gets 400 on every path, in the surface's shape (RFC 9112 §3.2)", async () => {
    const http = (await t.app.start()).http!;
    const body = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
    try {
      for (const hostLines of ["Host: \r\n", "Host: x:99999\r\n", "Host: [::1\r\n", "Host: a b\r\n", "Host: a\r\nHost: b\r\n", "Host: a,b\r\n"]) {
        expect((await raw(http, `GET /healthz HTTP/1.1\r\n${hostLines}`)).status).toBe(400);
        const native = await raw(http, `GET /domains HTTP/1.1\r\n${hostLines}ov-token: ${t.accountKey}\r\n`);
        expect(native.status).toBe(400);
        const sparkpost = await raw(http, `GET /api/v1/account HTTP/1.1\r\n${hostLines}Authorization: ${t.accountKey}\r\n`);
        expect(sparkpost.status).toBe(400);
        expect(body(sparkpost.text).errors[0].message).toContain("Host");
        const sendgrid = await raw(http, `POST /v3/mail/send HTTP/1.1\r\n${hostLines}Authorization: Bearer ${t.accountKey}\r\nContent-Length: 0\r\n`);
        expect(sendgrid.status).toBe(400);
        expect(body(sendgrid.text).errors[0].message).toContain("Host");
        const mailgun = await raw(http, `GET /v3/domains HTTP/1.1\r\n${hostLines}Authorization: Basic ${btoa(`api:${t.accountKey}`)}\r\n`);
        expect(mailgun.status).toBe(400);
        expect(body(mailgun.text).message).toContain("Host");
        expect((await raw(http, `GET /ui HTTP/1.1\r\n${hostLines}`)).status).toBe(400);
      }
      // No Host line at all breaks HTTP/1.1 itself: the listener answers 400 before postern runs.
      expect((await raw(http, "GET /healthz HTTP/1.1\r\n")).status).toBe(400);
    } finally {
      await t.app.stop();
      t = await makeTestApp({ dir: t.dir, keepDir: true, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    }
  });

  const cases: [string, string, string, keyof typeof auth, number][] = [
    ["native: a malformed escape in a domain", "GET", "/domains/%ZZ", "native", 400],
    ["native: a lone % in a domain", "POST", "/%/messages", "native", 400],
    ["Mailgun: a lone surrogate in an address", "GET", "/v3/example.com/bounces/%ED%A0%80", "mailgun", 400],
    ["Mailgun: a truncated escape", "DELETE", "/v3/example.com/unsubscribes/%E0%A4%A", "mailgun", 400],
    ["SparkPost: a lone surrogate in a recipient", "DELETE", "/api/v1/suppression-list/%ED%A0%80", "sparkpost", 422],
    ["SparkPost: a bare % as the address", "GET", "/api/v1/recipient-validation/single/%", "sparkpost", 422],
    ["SendGrid: an escape that is no UTF-8", "GET", "/v3/mail/send/%C0%AF", "sendgrid", 400],
  ];
  for (const [name, method, path, surface, status] of cases) {
    test(name, async () => {
      const res = await call(path, { method, headers: auth[surface]() });
      expect(res.status).toBe(status);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(await res.text()).not.toContain("    at ");
    });
  }

  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  test("JSON nested 50,000 deep is refused by every surface", async () => {
    const json = { "content-type": "application/json" };
    const native = await call("/example.com/messages", { method: "POST", body: `{"to":${deep(50_000)}}`, headers: { ...auth.native(), ...json } });
    expect(native.status).toBe(400);
    expect(((await native.json()) as { message: string }).message).toContain("nest");
    expect((await call("/v3/mail/send", { method: "POST", body: deep(50_000), headers: { ...auth.sendgrid(), ...json } })).status).toBe(400);
    expect((await call("/api/v1/transmissions", { method: "POST", body: deep(50_000), headers: { ...auth.sparkpost(), ...json } })).status).toBe(422);
    // Declared as text, still JSON to whoever parses it.
    expect((await call("/api/v1/api-keys", { method: "POST", body: deep(65), headers: { ...auth.sparkpost(), "content-type": "text/plain" } })).status).toBe(422);
    expect((await call("/api/v1/api-keys", { method: "POST", body: JSON.stringify({ label: "ok" }), headers: { ...auth.sparkpost(), ...json } })).status).toBe(200);
  });

  test("a body above the stated size is 413; a form with too many fields is 400", async () => {
    const big = new Uint8Array(52_428_801);
    expect((await call("/v3/example.com/messages", { method: "POST", body: big, headers: { ...auth.mailgun(), "content-type": "application/octet-stream" } })).status).toBe(413);
    const form = "to=a%40dest.test&" + "o:tag=x&".repeat(10_001);
    const res = await call("/v3/example.com/messages", { method: "POST", body: form, headers: { ...auth.mailgun(), "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain("fields");
  });

  test("broken multipart, odd content types, NUL bytes and lone surrogates are 4xx", async () => {
    const bodies: [string, string | Uint8Array, string][] = [
      ["/v3/example.com/messages", "--XYZ\r\nContent-Disposition: form-data; name=\"to\"\r\n\r\nx", "multipart/form-data; boundary=XYZ"],
      ["/v3/example.com/messages", "--XYZ--", "multipart/form-data"],
      ["/example.com/messages", "garbage", "multipart/form-data; boundary="],
      ["/example.com/messages", "from=a%00b@example.com&to=%ED%A0%80&text=x", "application/x-www-form-urlencoded"],
      ["/v3/mail/send", JSON.stringify({ personalizations: [{ to: [{ email: "\ud800@dest.test" }] }], from: { email: "a\u0000@example.com" }, subject: "\ud800", content: [{ type: "text/plain", value: "x" }] }), "application/json"],
      ["/api/v1/transmissions", "{\"recipients\":[{\"address\":\"\\ud800@x.test\"}],\"content\":{\"from\":\"a@example.com\",\"subject\":\"\\u0000\",\"text\":\"x\"}}", "application/json"],
      ["/api/v1/transmissions", new Uint8Array([0xff, 0xfe, 0x7b, 0x00]), "application/json; charset=utf-16"],
      ["/example.com/suppress", "\u0000\u0000", "*/*"],
    ];
    const not4xx: string[] = [];
    for (const [path, body, type] of bodies) {
      const surface = path.startsWith("/api/") ? "sparkpost" : path.startsWith("/v3/mail") ? "sendgrid" : path.startsWith("/v3/") ? "mailgun" : "native";
      const res = await call(path, { method: "POST", body, headers: { ...auth[surface](), "content-type": type } });
      if (res.status < 400 || res.status >= 500) not4xx.push(`${path} [${type}] → ${res.status} ${await res.text()}`);
    }
    expect(not4xx).toEqual([]);
    // An odd content type over a body that is still JSON: taken (2xx) or refused (4xx), never 5xx.
    expect((await call("/api/v1/api-keys", { method: "POST", body: "{}", headers: { ...auth.sparkpost(), "content-type": "application/xml" } })).status).toBeLessThan(500);
  });
});
