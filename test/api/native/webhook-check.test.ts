import { describe, expect, test } from "bun:test";
import { checkWebhookUrl, isPrivateHost } from "../../../src/api/native/webhook-check.ts";
import { tokenId } from "../../../src/api/native/mapper.ts";

describe("private webhook targets", () => {
  const table: [string, boolean][] = [
    ["127.0.0.1", true], ["10.1.2.3", true], ["172.16.0.1", true], ["172.32.0.1", false], ["192.168.1.1", true],
    ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true], ["224.0.0.1", true], ["255.255.255.255", true],
    ["8.8.8.8", false], ["localhost", true], ["api.localhost", true], ["hooks.example.org", false],
    ["[::1]", true], ["[::]", true], ["[fe80::1]", true], ["[fd12:3456::1]", true], ["[::ffff:127.0.0.1]", true],
    ["[::ffff:7f00:1]", true], ["[2001:db8::1]", false],
  ];
  for (const [host, want] of table) test(`${host} is ${want ? "" : "not "}private`, () => expect(isPrivateHost(host)).toBe(want));

  test("URL forms that normalise to loopback are caught", () => {
    expect(checkWebhookUrl("http://2130706433/x", false)).toHaveLength(1);
    expect(checkWebhookUrl("http://0x7f.1/x", false)).toHaveLength(1);
    expect(checkWebhookUrl("http://127.0.0.1/x", true)).toEqual([]);
    expect(checkWebhookUrl("https://hooks.example.org/x", false)).toEqual([]);
  });
});

describe("tid", () => {
  test("is a stable safe integer per key id", () => {
    expect(tokenId("abcdefghjkmn")).toBe(tokenId("abcdefghjkmn"));
    expect(tokenId("abcdefghjkmn")).not.toBe(tokenId("abcdefghjkmp"));
    expect(Number.isSafeInteger(tokenId("zzzzzzzzzzzz"))).toBe(true);
  });
});
