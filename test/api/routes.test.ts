import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { surfaceForPath } from "../../src/api/surfaces.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

describe("the contract's prefix table", () => {
  const table: [string, string][] = [
    ["/v3/mail/send", "sendgrid"], ["/v3/validations/email", "sendgrid"], ["/v3/mail/send/", "sendgrid"],
    ["/v3/templates", "sendgrid"], ["/v3/templates/d-1/versions/v", "sendgrid"], ["/v3/example.com/templates", "mailgun"],
    ["/v3/example.com/messages", "mailgun"], ["/v4/domains", "mailgun"], ["/v4/address/validate", "mailgun"],
    ["/v1/anything", "mailgun"], ["/v5/accounts", "mailgun"], ["/v3/mail/batch", "sendgrid"],
    ["/v3/user/webhooks/event/settings", "sendgrid"], ["/v3/suppression/bounces", "sendgrid"], ["/v3/asm/groups", "sendgrid"], ["/v3/stats", "sendgrid"],
    ["/v3/stats/total", "mailgun"], ["/v3/domains", "mailgun"], ["/v3/lists/x@example.com/members", "mailgun"], ["/v3/example.com/tags", "mailgun"],
    ["/api/v1/transmissions", "sparkpost"], ["//api/v1/transmissions", "sparkpost"], ["/api/v1/sending-domains/", "sparkpost"],
    ["/healthz", "system"], ["/metrics", "system"], ["/docs", "system"], ["/ui", "system"],
    ["/test", "native"], ["/domains", "native"], ["/example.com/messages", "native"], ["/address/parse", "native"],
    ["/v6/x", "native"], ["/t/o/abc", "tracking"], ["/example.com/msg1/hclick", "tracking"],
  ];
  for (const [path, surface] of table as [string, ReturnType<typeof surfaceForPath>][]) test(`${path} belongs to ${surface}`, () => expect(surfaceForPath(path)).toBe(surface));
});

describe("authentication per surface", () => {
  let t: TestApp;
  beforeAll(async () => { t = await makeTestApp(); });
  afterAll(async () => { await t.close(); });
  const call = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    t.app.http(new Request(`http://127.0.0.1${path}`, { method, headers }));

  test("SendGrid answers 401 in its errors shape", async () => {
    const res = await call("/v3/mail/send", { authorization: "Bearer nope" }, "POST");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ errors: [{ message: "The provided authorization grant is invalid, expired, or revoked", field: null, help: null }] });
  });
  test("Mailgun answers 401 with the plain-text Forbidden", async () => {
    const res = await call("/v3/example.com/messages", { authorization: `Basic ${btoa("api:wrong")}` }, "POST");
    expect(res.status).toBe(401);
    expect(await res.text()).toBe("Forbidden");
  });
  test("SparkPost answers 401 in its errors shape", async () => {
    const res = await call("/api/v1/account", { authorization: "wrong" });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe("Unauthorized.");
  });
  test("the native surface answers 401 with message", async () => {
    const res = await call("/test", { "ov-token": "wrong" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Unauthorized" });
  });
  test("a valid key for the wrong surface scheme is refused", async () => {
    const res = await call("/test", { authorization: `Bearer ${t.domainKey}` });
    expect(res.status).toBe(401);
  });
  test("a valid key reaches the surface, which answers 404 in its own shape for unknown routes", async () => {
    const res = await call("/api/v1/nothing-here", { authorization: t.accountKey });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("1600");
    const mg = await call("/v3/nothing/here/at/all", { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` });
    expect(mg.status).toBe(404);
    expect(await mg.json()).toHaveProperty("message");
  });
  test("an unknown SendGrid path answers SendGrid's 404, with a valid key or a Bearer one under any /v3 root", async () => {
    const known = await call("/v3/user/nothing", { authorization: `Bearer ${t.domainKey}` });
    expect(known.status).toBe(404);
    expect(await known.json()).toEqual({ errors: [{ field: null, message: "resource not found" }] });
    const other = await call("/v3/nothing-here", { authorization: `Bearer ${t.domainKey}` });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ errors: [{ field: null, message: "resource not found" }] });
    const bad = await call("/v3/nothing-here", { authorization: "Bearer wrong" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toHaveProperty("errors");
  });
  test("a revoked key is refused at once", async () => {
    const k = await t.app.access.createKey({ kind: "account", label: "temp" });
    expect((await call("/api/v1/nothing", { authorization: k.key })).status).toBe(404);
    await t.app.access.revokeKey(k.id);
    expect((await call("/api/v1/nothing", { authorization: k.key })).status).toBe(401);
  });
  test("/docs links the OpenAPI documents and /ui serves the console", async () => {
    expect(await (await call("/docs")).text()).toContain('href="/docs/native.json"');
    expect(((await (await call("/docs/native.json")).json()) as { openapi: string }).openapi).toStartWith("3.");
    const ui = await call("/ui");
    expect(ui.headers.get("content-type")).toContain("text/html");
    expect(await ui.text()).toContain("postern console");
  });
  test("/healthz and /metrics answer without a key", async () => {
    expect(await (await call("/healthz")).json()).toMatchObject({ status: "ok", last_errors: [] });
    await call("/test", { "ov-token": "x" });
    expect(await (await call("/metrics")).text()).toContain('postern_http_requests_total{surface="native",status="401"}');
  });
});
