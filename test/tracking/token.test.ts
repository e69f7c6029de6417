// Signed tracking tokens: round trips, tamper and foreign-secret rejection, compactness.
import { describe, expect, test } from "bun:test";
import { createTokenCodec, type TrackingPayload } from "../../src/tracking/token.ts";

const codec = createTokenCodec("test-secret-0123456789");
const base = { messageId: "msg_01JD3Q7ZK8", recipientId: "rcpt_7f3a", domain: "example.com" } as const;

describe("token codec", () => {
  const payloads: TrackingPayload[] = [
    { kind: "open", ...base },
    { kind: "unsubscribe", ...base },
    { kind: "click", ...base, url: "https://shop.example.org/p?id=1&utm=x#top", linkIndex: 0 },
    { kind: "click", ...base, url: "http://plain.example.org/", linkIndex: 49 },
    { kind: "click", ...base, url: "HTTPS://UPPER.example.org/x", linkIndex: 300 },
    { kind: "click", ...base, url: "https://bücher.example/straße?q=ü", linkIndex: 2 ** 31 - 1 },
    { kind: "open", messageId: "", recipientId: "", domain: "" },
  ];
  for (const payload of payloads) {
    test(`round-trips ${payload.kind} ${payload.url ?? ""}`, () => {
      const token = codec.sign(payload);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(codec.verify(token)).toEqual(payload);
    });
  }

  test("is deterministic and short", () => {
    const open = codec.sign({ kind: "open", ...base });
    expect(codec.sign({ kind: "open", ...base })).toBe(open);
    // header + 3 length-prefixed ids (36 bytes) + 16-byte MAC = 56 bytes -> 75 base64url chars
    expect(open.length).toBeLessThanOrEqual(80);
    const url = "https://shop.example.org/p?id=1";
    const click = codec.sign({ kind: "click", ...base, url, linkIndex: 3 });
    expect(click.length).toBeLessThan(open.length + url.length + 4);
  });

  test("rejects every single-character change", () => {
    const token = codec.sign({ kind: "click", ...base, url: "https://a.example/x", linkIndex: 1 });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < token.length; i++) {
      const swapped = alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!;
      expect(codec.verify(token.slice(0, i) + swapped + token.slice(i + 1))).toBeNull();
    }
  });

  test("rejects a token signed with another secret", () => {
    const token = createTokenCodec("another-secret").sign({ kind: "open", ...base });
    expect(codec.verify(token)).toBeNull();
  });

  test("rejects truncated, extended, empty and non-base64url input", () => {
    const token = codec.sign({ kind: "unsubscribe", ...base });
    for (const bad of [
      "",
      token.slice(0, -1),
      token.slice(0, 10),
      token + "A",
      token + "=",
      `${token.slice(0, 5)}.${token.slice(5)}`,
      token.replace(/[A-Za-z]/, "+"),
      "A".repeat(20_000),
    ]) {
      expect(codec.verify(bad)).toBeNull();
    }
  });

  test("refuses to sign an invalid linkIndex and to build a codec without a secret", () => {
    expect(() => codec.sign({ kind: "click", ...base, url: "https://x.example", linkIndex: -1 })).toThrow(RangeError);
    expect(() => codec.sign({ kind: "click", ...base, url: "https://x.example", linkIndex: 1.5 })).toThrow(RangeError);
    expect(() => createTokenCodec("")).toThrow();
  });

  test("signs and verifies fast enough for the send path", () => {
    const payload: TrackingPayload = { kind: "click", ...base, url: "https://shop.example.org/p?id=1", linkIndex: 7 };
    const rounds = 20_000;
    const t0 = Bun.nanoseconds();
    for (let i = 0; i < rounds; i++) codec.verify(codec.sign(payload));
    console.log(`token sign+verify: ${((Bun.nanoseconds() - t0) / rounds / 1000).toFixed(2)} µs`);
  });
});
