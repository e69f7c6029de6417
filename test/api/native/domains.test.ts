import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startNative, type NativeEnv } from "./setup.ts";
import openapi from "../../../docs/api/native.openapi.json";

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

setDefaultTimeout(60_000);

let env: NativeEnv;
beforeAll(async () => { env = await startNative(); });
afterAll(async () => { await env.close(); });

describe("GET /domains", () => {
  test("lists every domain for an account key, with the spec's fields", async () => {
    const list = await (await env.call("/domains")).json();
    expect(list.map((d: { name: string }) => d.name).sort()).toEqual(["example.com", "other.test"]);
    const item = list.find((d: { name: string }) => d.name === "example.com");
    expect(Object.keys(item).sort()).toEqual(["cid", "created_at", "data_location", "force_dkim_authority", "id", "name", "state", "wildcard"]);
    expect(item).toMatchObject({ cid: 1, data_location: "us", force_dkim_authority: true, state: "active", wildcard: false });
    expect(item.created_at).toMatch(HTTP_DATE);
  });

  test("lists only the key's own domain for a domain key", async () => {
    const list = await (await env.call("/domains", { key: env.otherKey })).json();
    expect(list.map((d: { name: string }) => d.name)).toEqual(["other.test"]);
  });
});

describe("GET /domains/{domain}", () => {
  test("answers the detail under `domain` with limit used/max", async () => {
    await env.t.app.domains.set("example.com", { limit: "500/day" });
    const res = await env.call("/domains/example.com");
    expect(res.status).toBe(200);
    const { domain } = await res.json();
    expect(Object.keys(domain).sort()).toEqual(["channel", "created_at", "data_location", "dkim_auth", "limit", "name", "seedmail",
      "state", "transactional", "updated_at", "wildcard"]);
    expect(domain).toMatchObject({ name: "example.com", data_location: "us", dkim_auth: true, state: "active", wildcard: false,
      seedmail: "postmaster@example.com", channel: "email", transactional: true });
    expect(domain.limit).toMatch(/^\d+\/500$/);
    expect(domain.updated_at).toMatch(HTTP_DATE);
  });

  test("counts messages sent in the current window in limit", async () => {
    const before = Number((await (await env.call("/domains/example.com")).json()).domain.limit.split("/")[0]);
    const fd = new FormData();
    fd.append("from", "a@example.com");
    fd.append("to", "x@dest.test, y@dest.test");
    fd.append("text", "hi");
    fd.append("o:testmode", "yes");
    expect((await env.call("/example.com/messages", { method: "POST", body: fd })).status).toBe(200);
    const after = (await (await env.call("/domains/example.com")).json()).domain.limit;
    expect(after).toBe(`${before + 1}/500`);
  });

  test("adds the DNS records with dns=true", async () => {
    const body = await (await env.call("/domains/example.com?dns=true")).json();
    expect(body.domain.name).toBe("example.com");
    const dkim = body.sending_dns_records.find((r: { purpose: string }) => r.purpose === "dkim");
    expect(dkim).toMatchObject({ record_type: "TXT", name: "s1._domainkey.example.com", required: true, valid: "invalid" });
    expect(dkim.value).toStartWith("v=DKIM1;");
    expect(body.receiving_dns_records).toEqual([expect.objectContaining({ record_type: "MX", priority: 10, purpose: "bounce-mx" })]);
    expect((await (await env.call("/domains/example.com")).json()).sending_dns_records).toBeUndefined();
  });

  test("answers 400 for a dns value that is not a boolean", async () => {
    const res = await env.call("/domains/example.com?dns=maybe");
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("dns");
  });

  test("answers 404 for an unknown domain and for a domain the key may not see", async () => {
    const unknown = await env.call("/domains/nowhere.test");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Domain not found: nowhere.test", status: 404 });
    expect((await env.call("/domains/example.com", { key: env.otherKey })).status).toBe(404);
    expect((await env.call("/domains/other.test", { key: env.otherKey })).status).toBe(200);
  });
});

describe("routing", () => {
  test("unknown paths answer 404 in the native shape", async () => {
    const res = await env.call("/nothing/here/at/all");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404 });
  });

  test("/{domain}/... routes do not capture /domains, /address or /test", async () => {
    expect((await env.call("/domains/messages", { method: "POST" })).status).toBe(404);
    expect((await env.call("/address/validate")).status).toBe(404);
    expect((await env.call("/test/messages", { method: "POST", body: new FormData() })).status).toBe(404);
  });
});

describe("docs/api/native.openapi.json", () => {
  test("every documented operation is served (none answers 404)", async () => {
    for (const [path, ops] of Object.entries(openapi.paths)) {
      for (const method of Object.keys(ops)) {
        // An unknown bot request id is a real 404; test/api/openapi compares the paths with the router.
        if (path.endsWith("{requestId}")) continue;
        // So is an unknown configured alert rule's id (DELETE /alerts/{id}).
        if (path === "/alerts/{id}") continue;
        // And an unknown key id (DELETE /keys/{id}).
        if (path === "/keys/{id}") continue;
        const url = path.replace("{domain}", "example.com").replace("{webhooktype}", "accepted");
        const res = await env.call(url, { method: method.toUpperCase() });
        expect(`${method} ${path} ${res.status}`).not.toEndWith(" 404");
      }
    }
  });
});
