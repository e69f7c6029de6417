// The records a domain publishes. SPF names what DNS knows: the configured MTA host name, else the
// server's own address. Receivers' reports go to dmarc@ and tlsrpt@ of its bounce domain, and a
// bounce domain outside the domain's tree gets the consent record RFC 7489 §7.1 asks for.
import { describe, expect, test } from "bun:test";
import { recordsFor, spfMechanism } from "../../src/core/domain-dns.ts";
import type { Domain } from "../../src/core/model.ts";

describe("spfMechanism", () => {
  test("the configured [mta] hostname wins", () => {
    expect(spfMechanism("mail.example.com", ["203.0.113.9"], "vm")).toBe("a:mail.example.com");
  });
  test("else the machine's address, public before private, IPv4 before IPv6, never loopback", () => {
    expect(spfMechanism("", ["127.0.0.1", "::1", "10.0.0.5", "2001:db8::5", "198.51.100.7"], "vm")).toBe("ip4:198.51.100.7");
    expect(spfMechanism("", ["127.0.0.1", "10.0.0.5", "2001:db8::5"], "vm")).toBe("ip6:2001:db8::5");
    expect(spfMechanism("", ["127.0.0.1", "fe80::1", "192.168.1.20"], "vm")).toBe("ip4:192.168.1.20");
  });
  test("a bare machine name only when the machine has no address but loopback", () => {
    expect(spfMechanism("", ["127.0.0.1", "::1", ""], "vm")).toBe("a:vm");
  });
});

const domain = { name: "shop.test", inbound: false } as Domain;
const ctx = (bounceDomain: string) => ({ mtaHostname: "mta.test", bounceDomain, trackingHost: "t.test" });

describe("report records", () => {
  test("with each domain's own bounce domain: rua and TLS-RPT at bounces.<domain>, no consent record", () => {
    const r = recordsFor(domain, [], ctx(""));
    expect(r.find((x) => x.purpose === "dmarc")).toMatchObject({ name: "_dmarc.shop.test", value: "v=DMARC1; p=none; rua=mailto:dmarc@bounces.shop.test" });
    expect(r.find((x) => x.purpose === "tls-rpt")).toMatchObject({ name: "_smtp._tls.shop.test", value: "v=TLSRPTv1; rua=mailto:tlsrpt@bounces.shop.test" });
    expect(r.some((x) => x.purpose === "dmarc-report-auth")).toBe(false);
  });

  test("with a shared bounce domain elsewhere: the consent record under it", () => {
    const r = recordsFor(domain, [], ctx("bounces.mail-host.test"));
    expect(r.find((x) => x.purpose === "dmarc")!.value).toBe("v=DMARC1; p=none; rua=mailto:dmarc@bounces.mail-host.test");
    expect(r.find((x) => x.purpose === "dmarc-report-auth")).toMatchObject({ type: "TXT", name: "shop.test._report._dmarc.bounces.mail-host.test", value: "v=DMARC1" });
  });
});

describe("DKIM records", () => {
  test("pending, active and retiring keys are published, retired ones not; only the active RSA key is required", () => {
    const key = (selector: string, state: "pending" | "active" | "retiring" | "retired") =>
      ({ domainId: 1, selector, algorithm: "rsa-sha256" as const, privateKeyPem: "", publicKey: `P${selector}`, state });
    const r = recordsFor(domain, [key("old", "retired"), key("s1", "retiring"), key("s2", "active"), key("s3", "pending")], ctx(""));
    expect(r.filter((x) => x.purpose === "dkim").map((x) => [x.name, x.required])).toEqual([["s1._domainkey.shop.test", false],
      ["s2._domainkey.shop.test", true], ["s3._domainkey.shop.test", false]]);
  });
});
