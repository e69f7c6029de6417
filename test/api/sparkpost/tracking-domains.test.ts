// SparkPost tracking domains (src/api/sparkpost/tracking-domains.ts) and the sending domains'
// tracking_domain field, through the official sparkpost client, over the same tracking hosts as
// the CLI; the hosts resolve through a real dnsmasq.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSpEnv, failure, bodyOf, type SpEnv } from "./setup.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { createSystemResolver } from "../../../src/dns.ts";

let env: SpEnv;
let dns: DnsmasqServer;
beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: "mta.test", value: "127.0.0.1" }, { type: "CNAME", name: "email.example.com", value: "mta.test" },
    { type: "A", name: "links.example.com", value: "198.51.100.7" }]);
  env = await startSpEnv({ resolver: createSystemResolver([dns.server]) });
  await env.t.app.trackingHosts.checkAll();
});
afterAll(async () => { await env?.close(); await dns?.stop(); });

describe("tracking domains", () => {
  test("every sending domain's host is listed; email.<domain> resolving here is verified", async () => {
    const list = await env.account.get({ uri: "tracking-domains" });
    expect(list.results).toEqual([{ port: 8025, domain: "email.example.com", secure: false, default: false,
      status: { verified: true, cname_status: "valid", compliance_status: "valid" } }]);
    expect((await env.account.get({ uri: "tracking-domains", qs: { default: true } })).results).toEqual([]);
    expect((await env.domain.get({ uri: "tracking-domains/email.example.com" })).results).toMatchObject({ domain: "email.example.com", secure: false });
  });

  test("create sets the host of the sending domain it is under; verify checks it; delete goes back to email.<domain>", async () => {
    expect(await env.account.post({ uri: "tracking-domains", json: { domain: "Links.example.com" } })).toEqual({ results: { domain: "links.example.com" } });
    expect((await env.t.app.domains.require("example.com")).tracking?.host).toBe("links.example.com");
    expect((await env.account.get({ uri: "sending-domains/example.com" })).results.tracking_domain).toBe("links.example.com");
    expect((await env.account.post({ uri: "tracking-domains/links.example.com/verify", json: {} })).results)
      .toEqual({ verified: false, cname_status: "invalid", compliance_status: "valid" });
    expect(await env.account.put({ uri: "tracking-domains/links.example.com", json: { secure: true } })).toEqual({ results: { domain: "links.example.com" } });
    await env.account.delete({ uri: "tracking-domains/links.example.com" });
    expect((await env.t.app.trackingHosts.get("example.com")).host).toBe("email.example.com");
    expect((await failure(env.account.get({ uri: "tracking-domains/links.example.com" }))).statusCode).toBe(404);
  });

  test("the sending domain's tracking_domain sets the same host; bad input gets SparkPost's errors", async () => {
    await env.account.put({ uri: "sending-domains/example.com", json: { tracking_domain: "click.example.com" } });
    expect((await env.t.app.trackingHosts.get("example.com")).host).toBe("click.example.com");
    const conflict = await failure(env.account.post({ uri: "tracking-domains", json: { domain: "click.example.com" } }));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.errors[0]).toMatchObject({ code: "1602", message: "resource conflict" });
    const missing = await failure(env.account.post({ uri: "tracking-domains", json: {} }));
    expect(missing.statusCode).toBe(422);
    expect(missing.errors[0]).toMatchObject({ code: "1400" });
    const outside = await failure(env.account.post({ uri: "tracking-domains", json: { domain: "track.unrelated.test" } }));
    expect(outside.statusCode).toBe(422);
    expect(outside.errors[0]).toMatchObject({ code: "1300", message: "invalid data format/type" });
    expect((await failure(env.account.post({ uri: "tracking-domains", json: { domain: "t2.example.com", default: true } }))).statusCode).toBe(422);
    expect((await failure(env.account.post({ uri: "tracking-domains", json: { domain: "t2.example.com", secure: "yes" } }))).statusCode).toBe(422);
    const badHost = await bodyOf(await env.call("PUT", "/api/v1/sending-domains/example.com", env.t.accountKey, { tracking_domain: "bad host" }));
    expect(badHost.errors[0]).toMatchObject({ code: "1300" });
    expect((await env.t.app.trackingHosts.get("example.com")).host).toBe("click.example.com");
  });

  test("a domain key acts only on its own domain's tracking domain", async () => {
    await env.t.app.domains.add("other.test");
    const res = await env.call("POST", "/api/v1/tracking-domains", env.t.domainKey, { domain: "links.other.test" });
    expect(res.status).toBe(403);
    expect((await env.domain.get({ uri: "tracking-domains" })).results.map((r: { domain: string }) => r.domain)).toEqual(["click.example.com"]);
  });
});

describe("tracking domains and tenants", () => {
  test("a subaccount's key neither makes nor removes a tracking domain under another tenant's domain", async () => {
    const made = await env.account.subaccounts.create({ name: "acme", key_label: "acme", key_grants: ["tracking_domains/manage"] });
    await env.t.app.domains.add("acme.test", { tenant: made.results.subaccount_id });
    const before = (await env.t.app.trackingHosts.get("example.com")).host;
    const acme = env.client(made.results.key);
    expect((await failure(acme.post({ uri: "tracking-domains", json: { domain: "evil.example.com" } }))).statusCode).toBe(403);
    expect((await failure(acme.delete({ uri: `tracking-domains/${before}` }))).statusCode).toBe(403);
    expect((await env.t.app.trackingHosts.get("example.com")).host).toBe(before);
    expect(await acme.post({ uri: "tracking-domains", json: { domain: "links.acme.test" } })).toEqual({ results: { domain: "links.acme.test" } });
  });
});
