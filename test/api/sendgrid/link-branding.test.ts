// SendGrid link branding (src/api/sendgrid/link-branding.ts) through @sendgrid/client's request,
// over the same tracking hosts as the CLI; the hosts resolve through a real dnsmasq.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startHarness, type SendgridHarness } from "./setup.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { createSystemResolver } from "../../../src/dns.ts";

let h: SendgridHarness;
let dns: DnsmasqServer;
let id = 0;
beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: "mta.test", value: "127.0.0.1" }, { type: "CNAME", name: "email.example.com", value: "mta.test" },
    { type: "CNAME", name: "links.example.com", value: "mta.test" }]);
  h = await startHarness({ resolver: createSystemResolver([dns.server]) });
  id = (await h.t.app.domains.require("example.com")).id;
  await h.t.app.trackingHosts.checkAll();
});
afterAll(async () => { await h?.close(); await dns?.stop(); });

const call = async (method: string, url: string, body?: unknown) => {
  try {
    const [res] = await h.client.request({ method: method as "GET", url, ...(body === undefined ? {} : { body }) });
    return { status: res.statusCode, body: res.body as any };
  } catch (e) {
    const r = (e as { code: number; response: { body: any } });
    return { status: r.code, body: r.response.body };
  }
};

describe("link branding", () => {
  test("the domain's branded link is its tracking host, email.<domain> by default", async () => {
    const list = await call("GET", "/v3/whitelabel/links");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id, domain: "example.com", subdomain: "email", username: "example.com", user_id: 1, default: false, valid: true, legacy: false,
      dns: { domain_cname: { valid: true, type: "cname", host: "email.example.com", data: "127.0.0.1" } } }]);
    expect((await call("GET", "/v3/whitelabel/links/default?domain=example.com")).body).toMatchObject({ id, subdomain: "email" });
  });

  test("create sets the sending domain's host; validate checks it now; delete goes back to email.<domain>", async () => {
    const made = await call("POST", "/v3/whitelabel/links", { domain: "example.com", subdomain: "links" });
    expect(made.status).toBe(201);
    // A new host is pending until it is checked.
    expect(made.body).toMatchObject({ id, domain: "example.com", subdomain: "links", valid: false });
    expect((await h.t.app.trackingHosts.get("example.com")).host).toBe("links.example.com");
    const checked = await call("POST", `/v3/whitelabel/links/${id}/validate`);
    expect(checked).toEqual({ status: 200, body: { id, valid: true, validation_results: { domain_cname: { valid: true, reason: null } } } });
    expect((await call("GET", `/v3/whitelabel/links/${id}`)).body).toMatchObject({ valid: true, dns: { domain_cname: { host: "links.example.com", valid: true } } });
    expect((await call("PATCH", `/v3/whitelabel/links/${id}`, { default: false })).status).toBe(200);
    expect((await call("DELETE", `/v3/whitelabel/links/${id}`)).status).toBe(204);
    expect((await h.t.app.trackingHosts.get("example.com")).host).toBe("email.example.com");
  });

  test("bad input gets SendGrid's 4xx shape", async () => {
    const noDomain = await call("POST", "/v3/whitelabel/links", { subdomain: "x" });
    expect(noDomain.status).toBe(400);
    expect(noDomain.body.errors[0]).toMatchObject({ field: "domain" });
    expect((await call("POST", "/v3/whitelabel/links", { domain: "unknown.test" })).body.errors[0]).toMatchObject({ field: "domain" });
    expect((await call("POST", "/v3/whitelabel/links", { domain: "example.com", subdomain: "a b" })).body.errors[0]).toMatchObject({ field: "subdomain" });
    expect((await call("POST", "/v3/whitelabel/links", { domain: "example.com", default: true })).status).toBe(400);
    expect((await call("PATCH", `/v3/whitelabel/links/${id}`, { default: "yes" })).status).toBe(400);
    expect((await call("GET", "/v3/whitelabel/links/999999")).status).toBe(404);
    expect((await call("GET", "/v3/whitelabel/links/abc")).status).toBe(404);
  });

  test("a domain key sees and changes only its own domain's branded link", async () => {
    const other = await h.t.app.domains.add("other.test");
    expect((await call("GET", `/v3/whitelabel/links/${other.id}`)).status).toBe(403);
    expect((await call("POST", "/v3/whitelabel/links", { domain: "other.test" })).status).toBe(403);
    expect((await call("GET", "/v3/whitelabel/links")).body.map((l: { id: number }) => l.id)).toEqual([id]);
  });
});

describe("link branding and tenants", () => {
  test("a subuser's key (or the primary on behalf of one) neither reads nor changes another tenant's branded link", async () => {
    const acme = await h.t.app.tenants.add("acme-links");
    await h.t.app.domains.add("acme-links.test", { tenant: acme.id });
    const acmeClient = h.clientsFor((await h.t.app.access.createKey({ kind: "account", tenant: acme.id })).key).client;
    const as = async (client: typeof h.client, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
      try { return (await client.request({ method: method as "GET", url, headers, ...(body === undefined ? {} : { body }) }))[0].statusCode; }
      catch (e) { return (e as { code: number }).code; }
    };
    expect(await as(acmeClient, "POST", "/v3/whitelabel/links", { domain: "example.com", subdomain: "evil" })).toBe(403);
    expect(await as(acmeClient, "GET", "/v3/whitelabel/links/default?domain=example.com")).toBe(403);
    const primary = h.clientsFor(h.t.accountKey).client;
    expect(await as(primary, "POST", "/v3/whitelabel/links", { domain: "example.com", subdomain: "evil" }, { "on-behalf-of": "acme-links" })).toBe(403);
    expect((await h.t.app.trackingHosts.get("example.com")).host).toBe("email.example.com");
    expect(await as(acmeClient, "POST", "/v3/whitelabel/links", { domain: "acme-links.test", subdomain: "go" })).toBe(201);
  });
});
