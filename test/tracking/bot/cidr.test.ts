// Table tests for IP/CIDR parsing and the longest-prefix matcher, IPv4 and IPv6 edge cases.

import { describe, expect, test } from "bun:test";
import { createIpRangeMatcher, parseCidr, parseIp } from "../../../src/tracking/bot/cidr.ts";

describe("parseIp", () => {
  const valid: [string, 4 | 6, string][] = [
    ["1.2.3.4", 4, "1,2,3,4"],
    ["0.0.0.0", 4, "0,0,0,0"],
    ["255.255.255.255", 4, "255,255,255,255"],
    [" 10.0.0.1 ", 4, "10,0,0,1"],
    ["::ffff:192.0.2.1", 4, "192,0,2,1"],
    ["::FFFF:c000:0201", 4, "192,0,2,1"],
    ["[2001:db8::1]", 6, "32,1,13,184,0,0,0,0,0,0,0,0,0,0,0,1"],
    ["fe80::1%eth0", 6, "254,128,0,0,0,0,0,0,0,0,0,0,0,0,0,1"],
    ["::", 6, "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"],
    ["::1", 6, "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1"],
    ["1::", 6, "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0"],
    ["64:ff9b::1.2.3.4", 6, "0,100,255,155,0,0,0,0,0,0,0,0,1,2,3,4"],
    ["2a01:111:f403:0:0:0:0:5", 6, "42,1,1,17,244,3,0,0,0,0,0,0,0,0,0,5"],
  ];
  test.each(valid)("parses %p as IPv%p", (text, version, bytes) => {
    const ip = parseIp(text);
    expect(ip?.version).toBe(version);
    expect(Array.from(ip?.bytes ?? []).join(",")).toBe(bytes);
  });

  const invalid = [
    "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.-1", "a.b.c.d", "1.2.3.4 5",
    ":::", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", ":1", "g::1", "::1.2.3", "unknown",
  ];
  test.each(invalid)("rejects %p", (text) => {
    expect(parseIp(text)).toBeUndefined();
  });
});

describe("parseCidr", () => {
  test("reads prefix, treats a bare address as a host route and tolerates host bits", () => {
    expect(parseCidr("10.1.2.3/8")?.prefix).toBe(8);
    expect(parseCidr("10.1.2.3")?.prefix).toBe(32);
    expect(parseCidr("2001:db8::/32")?.prefix).toBe(32);
    expect(parseCidr("::ffff:10.0.0.0/104")).toEqual({ ip: { version: 4, bytes: new Uint8Array([10, 0, 0, 0]) }, prefix: 8 });
  });
  test.each(["10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/-1", "nope/8"])("rejects %p", (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });
});

describe("createIpRangeMatcher", () => {
  const matcher = createIpRangeMatcher([
    ["0.0.0.0/0", "v4-default"],
    ["10.0.0.0/8", "ten"],
    ["10.1.0.0/16", "ten-one"],
    ["10.1.2.3/32", "host"],
    ["192.0.2.128/25", "upper-half"],
    ["2001:db8::/32", "doc"],
    ["2001:db8:1::/48", "doc-1"],
    ["::/0", "v6-default"],
  ] as const);

  const table: [string, string | undefined][] = [
    ["10.9.9.9", "ten"],
    ["10.1.9.9", "ten-one"],
    ["10.1.2.3", "host"],
    ["10.1.2.4", "ten-one"],
    ["192.0.2.127", "v4-default"],
    ["192.0.2.128", "upper-half"],
    ["192.0.2.255", "upper-half"],
    ["::ffff:10.1.2.3", "host"],
    ["2001:db8:1:2::3", "doc-1"],
    ["2001:db8:2::1", "doc"],
    ["2001:db9::1", "v6-default"],
    ["not-an-ip", undefined],
    ["", undefined],
  ];
  test.each(table)("%p → %p (longest prefix wins)", (ip, expected) => {
    expect(matcher.lookup(ip) as string | undefined).toBe(expected);
  });

  test("keeps IPv4 and IPv6 apart and counts ranges", () => {
    const v4only = createIpRangeMatcher([["0.0.0.0/0", true]]);
    expect(v4only.lookup("::1")).toBeUndefined();
    expect(v4only.lookup("8.8.8.8")).toBe(true);
    expect(matcher.size).toBe(8);
  });

  test("boundaries of a /31 and a /127", () => {
    const m = createIpRangeMatcher([["13.107.6.152/31", "a"], ["2620:1ec:4::152/127", "b"]]);
    expect([m.lookup("13.107.6.151"), m.lookup("13.107.6.152"), m.lookup("13.107.6.153"), m.lookup("13.107.6.154")]).toEqual([undefined, "a", "a", undefined]);
    expect([m.lookup("2620:1ec:4::151"), m.lookup("2620:1ec:4::152"), m.lookup("2620:1ec:4::153"), m.lookup("2620:1ec:4::154")]).toEqual([undefined, "b", "b", undefined]);
  });

  test("throws on malformed shipped data", () => {
    expect(() => createIpRangeMatcher([["10.0.0.0/40", 1]])).toThrow("invalid CIDR");
  });
});
