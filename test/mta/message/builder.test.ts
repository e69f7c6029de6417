// The local builder's cache: a message shared by its recipients is built once, and what it keeps
// is bounded in bytes as well as in messages.
import { describe, expect, test } from "bun:test";
import { createLocalBuilder } from "../../../src/mta/message/builder.ts";
import { encodeContent } from "../../../src/core/content.ts";
import { createTokenCodec } from "../../../src/tracking/token.ts";
import type { StoredMessage } from "../../../src/core/store-port.ts";

const messageOf = (id: string, text: string): StoredMessage => ({
  id, sendId: "s1", domain: "a.test", messageIdHeader: `<${id}@mta.test>`, from: "news@a.test", subject: "s", raw: null,
  content: encodeContent({ from: { email: "news@a.test" }, to: [{ email: "rcpt@x.test" }], subject: "s", text, attachments: [],
    tracking: { opens: false, clicks: false, clickText: false, unsubscribe: false, honeypot: false }, date: 1_800_000_000_000 }),
  tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: text.length, createdAt: 1_800_000_000_000,
});
const builder = () => createLocalBuilder({ compose: { publicUrl: "http://127.0.0.1", codec: createTokenCodec("secret"), hostname: "mta.test" },
  keysFor: async () => [], now: () => 1_800_000_000_000 });

describe("the local builder's cache", () => {
  test("a message shared by its recipients is built once", async () => {
    const b = builder();
    const m = messageOf("small", "hello");
    expect(await b.build(m, [], "r1")).toBe(await b.build(m, [], "r2"));
  });
  test("large messages are not all kept: past 16 MB of built bytes the oldest is let go and built again when asked", async () => {
    const b = builder();
    const big = "x".repeat(70).concat("\n").repeat(150_000); // about 10.6 MB
    const first = messageOf("big1", big);
    const once = await b.build(first, [], "r1");
    expect(once.byteLength).toBeGreaterThan(10_000_000);
    await b.build(messageOf("big2", big), [], "r1");
    const again = await b.build(first, [], "r2");
    expect(again).not.toBe(once);
    expect(Buffer.from(again).equals(Buffer.from(once))).toBe(true);
  });
});
