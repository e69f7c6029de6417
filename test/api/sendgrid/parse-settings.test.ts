// SendGrid Inbound Parse settings (src/api/sendgrid/parse-settings.ts) through the official
// @sendgrid/client: create, read, update, list, delete; bad input and another domain's hostnames
// are SendGrid-shaped errors, never a 5xx.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { requestWith, startHarness, type ClientRequest, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const call = (req: ClientRequest, client = h.client) => requestWith(client, req);
const BASE = "/v3/user/webhooks/parse/settings";

describe("inbound parse settings", () => {
  test("create, read, update, list and delete a hostname's setting", async () => {
    const created = await call({ method: "POST", url: BASE, body: { hostname: "Parse.Example.com", url: "http://127.0.0.1:9/in", spam_check: true } });
    expect(created).toEqual({ status: 201, body: { hostname: "parse.example.com", url: "http://127.0.0.1:9/in", spam_check: true, send_raw: false } as never });
    expect((await call({ method: "GET", url: `${BASE}/parse.example.com` })).body).toEqual(created.body);
    const patched = await call({ method: "PATCH", url: `${BASE}/parse.example.com`, body: { send_raw: true } });
    expect(patched.body).toEqual({ hostname: "parse.example.com", url: "http://127.0.0.1:9/in", spam_check: true, send_raw: true } as never);
    expect((await call({ method: "GET", url: BASE })).body).toEqual({ result: [patched.body] } as never);
    expect((await call({ method: "DELETE", url: `${BASE}/parse.example.com` })).status).toBe(204);
    expect((await call({ method: "GET", url: BASE })).body).toEqual({ result: [] } as never);
    await expect(call({ method: "GET", url: `${BASE}/parse.example.com` })).rejects.toMatchObject({ code: 404 });
  });

  test("bad input is a 400 naming the field; a second setting for a hostname is refused", async () => {
    const err = (field: string) => ({ code: 400, response: { body: { errors: [expect.objectContaining({ field })] } } });
    await expect(call({ method: "POST", url: BASE, body: { url: "http://127.0.0.1:9/in" } })).rejects.toMatchObject(err("hostname"));
    await expect(call({ method: "POST", url: BASE, body: { hostname: "in.example.com" } })).rejects.toMatchObject(err("url"));
    await expect(call({ method: "POST", url: BASE, body: { hostname: "in.example.com", url: "http://127.0.0.1:9/in", send_raw: "yes" } })).rejects.toMatchObject(err("send_raw"));
    await call({ method: "POST", url: BASE, body: { hostname: "in.example.com", url: "http://127.0.0.1:9/in" } });
    const dupe = await call({ method: "POST", url: BASE, body: { hostname: "in.example.com", url: "http://127.0.0.1:9/other" } }).catch((e) => e);
    expect(dupe.code).toBeGreaterThanOrEqual(400);
    expect(dupe.code).toBeLessThan(500);
    await expect(call({ method: "PATCH", url: `${BASE}/nothing.example.com`, body: { send_raw: true } })).rejects.toMatchObject({ code: 404 });
  });

  test("a domain key cannot claim a hostname of another domain", async () => {
    await h.t.app.domains.add("elsewhere.test");
    const res = await call({ method: "POST", url: BASE, body: { hostname: "in.elsewhere.test", url: "http://127.0.0.1:9/in" } }).catch((e) => e);
    expect(res.code).toBeGreaterThanOrEqual(400);
    expect(res.code).toBeLessThan(500);
    expect(((await call({ method: "GET", url: BASE })).body as { result: { hostname: string }[] }).result.map((r) => r.hostname)).not.toContain("in.elsewhere.test");
  });
});
