import { describe, expect, test } from "bun:test";
import { consoleDomain, mailgunDomain, nativeDomain, sendgridDomain, sparkpostBodyDomain, sparkpostDomain, sparkpostNeedsBody } from "../../../src/api/zones/request-domain.ts";
import type { Principal } from "../../../src/core/model.ts";

const domainKey = { kind: "domain", domain: { name: "key.test", zone: "eu" } } as unknown as Principal;
const accountKey = { kind: "account", domain: null } as unknown as Principal;

describe("the domain of a request, per surface", () => {
  test("Mailgun: /v3/<domain>/… and /v{n}/domains/<domain>/…; lists, routes and validation are about no domain", () => {
    expect(mailgunDomain("/v3/eu.test/messages")).toBe("eu.test");
    expect(mailgunDomain("/v3/eu.test/bounces/a%40b.test")).toBe("eu.test");
    expect(mailgunDomain("/v4/domains/eu.test")).toBe("eu.test");
    expect(mailgunDomain("/v3/domains/eu.test/messages/key")).toBe("eu.test");
    for (const p of ["/v4/domains", "/v3/lists/dev@eu.test", "/v3/routes", "/v4/address/validate", "/v3/domains"]) expect(mailgunDomain(p)).toBeNull();
  });
  test("SendGrid: the key's domain", () => {
    expect(sendgridDomain(domainKey)).toBe("key.test");
    expect(sendgridDomain(accountKey)).toBeNull();
  });
  test("SparkPost: the path's domain, else a domain key's; an account key's transmission by content.from", () => {
    expect(sparkpostDomain("/api/v1/sending-domains/eu.test", accountKey)).toBe("eu.test");
    expect(sparkpostDomain("/api/v1/eu.test/suppression-list", accountKey)).toBe("eu.test");
    expect(sparkpostDomain("/api/v1/transmissions", domainKey)).toBe("key.test");
    expect(sparkpostDomain("/api/v1/transmissions", accountKey)).toBeNull();
    expect(sparkpostDomain("/api/v1/sending-domains", accountKey)).toBeNull();
    expect(sparkpostNeedsBody("POST", "/api/v1/transmissions")).toBe(true);
    expect(sparkpostNeedsBody("GET", "/api/v1/transmissions")).toBe(false);
    expect(sparkpostBodyDomain({ content: { from: "Name <a@EU.test>" } })).toBe("eu.test");
    expect(sparkpostBodyDomain({ content: { from: { email: "a@eu.test", name: "N" } } })).toBe("eu.test");
    expect(sparkpostBodyDomain({ content: { from: "a@eu.test" } })).toBe("eu.test");
    for (const b of [null, {}, { content: {} }, { content: { from: 7 } }, { content: { from: "nobody" } }]) expect(sparkpostBodyDomain(b)).toBeNull();
  });
  test("native and console: the domain in the path", () => {
    expect(nativeDomain("/eu.test/messages")).toBe("eu.test");
    expect(nativeDomain("/domains/eu.test/webhooks")).toBe("eu.test");
    expect(nativeDomain("/domains")).toBeNull();
    expect(nativeDomain("/test")).toBeNull();
    expect(consoleDomain("/ui/api/domains/eu.test/suppressions")).toBe("eu.test");
    expect(consoleDomain("/ui/api/messages/eu.test/abc")).toBe("eu.test");
    expect(consoleDomain("/ui/api/domains")).toBeNull();
    expect(consoleDomain("/ui/api/keys")).toBeNull();
    expect(consoleDomain("/ui/api/stats", new URLSearchParams("range=days&domain=EU.test"))).toBe("eu.test");
    expect(consoleDomain("/ui/api/stats", new URLSearchParams("range=days"))).toBeNull();
  });
});
