// The reversed names PTR look-ups and blocklists ask under (RFC 5782 §2.1 and §2.4).
import { expect, test } from "bun:test";
import { reverseName, reversedLabels } from "../../src/dns.ts";

test("IPv4: octets reversed; IPv6: 32 nibbles reversed, :: and an IPv4 tail expanded", () => {
  expect(reversedLabels("192.0.2.99")).toBe("99.2.0.192");
  // RFC 5782 §2.4's own example: 2001:db8:1:2:3:4:567:89ab.
  expect(reversedLabels("2001:db8:1:2:3:4:567:89ab")).toBe("b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2");
  expect(reversedLabels("2001:DB8::5")).toBe("5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2");
  expect(reversedLabels("::ffff:192.0.2.1")).toBe(reversedLabels("0:0:0:0:0:ffff:c000:201"));
  expect(reversedLabels("::1")!.split(".")).toHaveLength(32);
  expect(reversedLabels("mail.example.com")).toBeNull();
});

test("PTR names under in-addr.arpa and ip6.arpa", () => {
  expect(reverseName("127.0.0.5")).toBe("5.0.0.127.in-addr.arpa");
  expect(reverseName("2001:db8::5")).toMatch(/^5\.0\.0\.0\..*\.8\.b\.d\.0\.1\.0\.0\.2\.ip6\.arpa$/);
  expect(reverseName("nope")).toBeNull();
});
