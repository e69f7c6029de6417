import { describe, expect, test } from "bun:test";
import { checkEgress, egressVerdict } from "../../src/net/egress.ts";
import { createMockResolver } from "../../src/dns.ts";

const resolver = createMockResolver({
  "hooks.example.org": { a: ["93.184.216.34"] },
  "inside.example.org": { a: ["10.0.0.7"] },
  "mixed.example.org": { a: ["93.184.216.34"], aaaa: ["fd00::1"] },
});
const strict = { allowPrivate: false, resolver };

describe("the egress guard", () => {
  const table: [string, boolean][] = [
    ["127.0.0.1", true], ["10.1.2.3", true], ["172.16.0.1", true], ["172.32.0.1", false], ["192.168.1.1", true],
    ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true], ["224.0.0.1", true], ["255.255.255.255", true],
    ["8.8.8.8", false], ["localhost", true], ["api.localhost", true], ["hooks.example.org", false],
    ["[::1]", true], ["[::]", true], ["[fe80::1]", true], ["[fd12:3456::1]", true], ["[::ffff:127.0.0.1]", true],
    ["[::ffff:7f00:1]", true], ["[2001:db8::1]", false], ["2130706433", true], ["0x7f.1", true],
    // IPv4-mapped and NAT64 forms are refused as a whole; public IPv4 must not be caught by those rules.
    ["[::ffff:808:808]", true], ["[64:ff9b::808:808]", true], ["93.184.216.34", false],
  ];
  for (const [host, isRefused] of table) {
    test(`${host} is ${isRefused ? "refused" : "allowed"}`, async () => {
      expect((await checkEgress(`http://${host}/x`, strict)) !== null).toBe(isRefused);
    });
  }

  test("a name is refused when any of its addresses is private, or when it does not resolve", async () => {
    expect(await checkEgress("https://inside.example.org/x", strict)).toContain("10.0.0.7");
    expect(await checkEgress("https://mixed.example.org/x", strict)).toContain("fd00::1");
    expect(await checkEgress("https://nowhere.example.org/x", strict)).toContain("does not resolve");
  });

  test("allow_private lets everything through without a lookup", async () => {
    expect(await checkEgress("http://127.0.0.1/x", { allowPrivate: true, resolver })).toBeNull();
    expect(await checkEgress("https://inside.example.org/x", { allowPrivate: true, resolver })).toBeNull();
  });
});

describe("schemes and DNS failures", () => {
  test("only http and https, even with allow_private", async () => {
    expect(await checkEgress("file:///etc/passwd", { allowPrivate: true, resolver })).toMatch(/file: URLs are not allowed/);
    expect(await checkEgress("data:text/plain,hi", { allowPrivate: true, resolver })).toMatch(/not allowed/);
    expect(await checkEgress("http://127.0.0.1:9/x", { allowPrivate: true, resolver })).toBeNull();
  });
  test("a name that does not resolve is a temporary refusal (retried), a private address a final one", async () => {
    expect(await egressVerdict("https://nowhere.test/x", { allowPrivate: false, resolver })).toMatchObject({ isTemporary: true });
    expect(await egressVerdict("http://10.0.0.1/x", { allowPrivate: false, resolver })).toMatchObject({ isTemporary: false });
  });
});
