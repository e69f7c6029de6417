// SPF names what DNS knows: the configured MTA host name, else the server's own address.
import { describe, expect, test } from "bun:test";
import { spfMechanism } from "../../src/core/domain-dns.ts";

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
