import { describe, expect, test } from "bun:test";
import { checkWebhookUrl, probeWebhookUrl } from "../../../src/api/native/webhook-check.ts";
import { tokenId } from "../../../src/api/native/mapper.ts";
import { createMockResolver } from "../../../src/dns.ts";
import { createOutbound } from "../../../src/webhooks/outbound.ts";

const resolver = createMockResolver({ "hooks.example.org": { a: ["93.184.216.34"] }, "inside.example.org": { a: ["192.168.0.9"] } });
const outbound = (allowPrivate: boolean) => createOutbound({ resolver, now: () => Date.now(), config: { allow_private: allowPrivate, timeout: 2_000 },
  keys: { forDomain: async () => "key", forTenant: async () => "key", forAccountOf: async () => "key" }, eventWebhookKey: "" });
const strict = outbound(false);

describe("webhook URL checks", () => {
  test("URL forms that normalise to loopback, and names resolving to private addresses, are refused", async () => {
    expect(await checkWebhookUrl("http://2130706433/x", strict)).toHaveLength(1);
    expect(await checkWebhookUrl("http://0x7f.1/x", strict)).toHaveLength(1);
    const [problem] = await checkWebhookUrl("https://inside.example.org/x", strict);
    expect(problem).toContain("192.168.0.9");
    expect(problem).toContain("webhooks.allow_private is off");
    expect(await checkWebhookUrl("http://127.0.0.1/x", outbound(true))).toEqual([]);
    expect(await checkWebhookUrl("https://hooks.example.org/x", strict)).toEqual([]);
  });

  test("only http and https are accepted", async () => {
    expect(await checkWebhookUrl("ftp://hooks.example.org/x", strict)).toEqual(["ftp://hooks.example.org/x: only http and https URLs can receive webhooks"]);
    expect(await checkWebhookUrl("not a url", strict)).toEqual(["not a url: not a valid URL"]);
  });

  test("the probe itself goes through the guard", async () => {
    expect(await probeWebhookUrl("http://127.0.0.1:9/x", "example.com", {}, strict)).toContain("refused");
  });
});

describe("tid", () => {
  test("is a stable safe integer per key id", () => {
    expect(tokenId("abcdefghjkmn")).toBe(tokenId("abcdefghjkmn"));
    expect(tokenId("abcdefghjkmn")).not.toBe(tokenId("abcdefghjkmp"));
    expect(Number.isSafeInteger(tokenId("zzzzzzzzzzzz"))).toBe(true);
  });
});
