// Mailgun's web_prefix / web_scheme (a domain's tracking host and its links' scheme) and secure
// tracking (/v2/x509/{host}) through mailgun.js, over the same tracking hosts as the CLI; the hosts
// resolve through a real dnsmasq. Certificates themselves are ordered in test/tls/host-certificates.test.ts.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, jsonOf, type MailgunHarness } from "./helpers.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { createSystemResolver } from "../../../src/dns.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
let dns: DnsmasqServer;
beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: "mta.test", value: "127.0.0.1" }, { type: "CNAME", name: "email.example.com", value: "mta.test" },
    { type: "CNAME", name: "track.example.com", value: "mta.test" }]);
  h = await startHarness({ resolver: createSystemResolver([dns.server]) });
  await h.t.app.trackingHosts.checkAll();
});
afterAll(async () => { await h?.close(); await dns?.stop(); });

describe("web_prefix and web_scheme", () => {
  test("a domain shows its tracking host's prefix; update and create set it", async () => {
    expect(await h.mg.domains.get("example.com")).toMatchObject({ name: "example.com", web_prefix: "email", web_scheme: "http" });
    await h.mg.domains.update("example.com", { web_prefix: "track", web_scheme: "https" } as never);
    expect((await h.t.app.trackingHosts.get("example.com")).host).toBe("track.example.com");
    expect((await h.mg.domains.get("example.com")).web_prefix).toBe("track");
    await h.mg.domains.create({ name: "fresh.test", web_prefix: "links" } as never);
    expect((await h.t.app.trackingHosts.get("fresh.test")).host).toBe("links.fresh.test");
    expect((await h.mg.domains.list()).find((d) => d.name === "fresh.test")?.web_prefix).toBe("links");
  });

  test("bad web_prefix or web_scheme: Mailgun's 400, nothing changed", async () => {
    const badScheme = await h.mg.domains.update("example.com", { web_scheme: "ftp" } as never).catch((e) => e);
    expect(badScheme.status).toBe(400);
    expect(badScheme.details ?? badScheme.message).toMatch(/web_scheme/);
    expect((await h.mg.domains.update("example.com", { web_prefix: "not valid" } as never).catch((e) => e)).status).toBe(400);
    expect((await h.t.app.trackingHosts.get("example.com")).host).toBe("track.example.com");
    // A prefix naming another domain's host: refused, and the domain is not left half-made.
    await h.t.app.domains.add("shop.test");
    await h.t.app.trackingHosts.set("shop.test", "x.clash.test");
    expect((await h.mg.domains.create({ name: "clash.test", web_prefix: "x" } as never).catch((e) => e)).status).toBe(400);
    expect(await h.t.app.domains.get("clash.test")).toBeNull();
  });
});

describe("secure tracking (/v2/x509)", () => {
  test("without [tls] acme: no certificate to show (404) and none ordered (400)", async () => {
    const status = await h.mg.domains.domainTracking.get("track.example.com").catch((e) => e);
    expect(status.status).toBe(404);
    const generate = await h.mg.domains.domainTracking.generate("track.example.com").catch((e) => e);
    expect(generate.status).toBe(400);
    expect(generate.details ?? generate.message).toMatch(/\[tls\] acme/);
    expect((await h.mg.domains.domainTracking.regenerate("track.example.com").catch((e) => e)).status).toBe(400);
  });

  test("a host that is no domain's tracking host: 404 in Mailgun's shape", async () => {
    const res = await h.call("GET", "/v2/x509/nothing.example.com/status");
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toEqual({ message: expect.stringContaining("nothing.example.com") });
  });
});
