// What a blocklist is asked: RFC 5782 names, and Spamhaus DQS names when a key is configured.
import { expect, test } from "bun:test";
import { askedZone, queryName, TEST_ENTRIES } from "../../../src/doctor/blocklists/query.ts";

test("an address as reversed octets or nibbles, a domain as itself, before the zone", () => {
  expect(queryName("192.0.2.99", "ip", "bl.example")).toBe("99.2.0.192.bl.example");
  expect(queryName("2001:db8::1", "ip", "bl.example")).toBe(`1.${"0.".repeat(23)}8.b.d.0.1.0.0.2.bl.example`);
  expect(queryName("Mail.Example.COM.", "domain", "dbl.example")).toBe("mail.example.com.dbl.example");
  expect(queryName("not-an-ip", "ip", "bl.example")).toBeNull();
});

test("a DQS key turns Spamhaus zones into <key>.<list>.dq.spamhaus.net; other zones stay", () => {
  expect(askedZone("zen.spamhaus.org", "abc123")).toBe("abc123.zen.dq.spamhaus.net");
  expect(askedZone("dbl.spamhaus.org", "abc123")).toBe("abc123.dbl.dq.spamhaus.net");
  expect(askedZone("zen.spamhaus.org", "")).toBe("zen.spamhaus.org");
  expect(askedZone("bl.spamcop.net", "abc123")).toBe("bl.spamcop.net");
  expect(queryName("192.0.2.99", "ip", askedZone("zen.spamhaus.org", "k"))).toBe("99.2.0.192.k.zen.dq.spamhaus.net");
});

test("RFC 5782 §5 test entries", () => {
  expect(TEST_ENTRIES).toEqual({ ip: ["127.0.0.2", "127.0.0.1"], domain: ["TEST", "INVALID"] });
});
