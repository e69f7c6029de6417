// Unauthenticated tracking input kept bounded: the unsubscribe endpoint checks its token before it
// reads a byte of the body and reads at most 4 KB of it; honeypot hits keep a hash of the user
// agent, not the user agent.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { createHoneypotMemory } from "../../src/tracking/bot/honeypot.ts";

let t: TestApp;
beforeAll(async () => { t = await makeTestApp(); });
afterAll(async () => { await t.close(); });

/** A 60 MB body produced lazily, counting what the server pulls. */
function hugeBody() {
  let pulled = 0;
  const chunk = new Uint8Array(65_536).fill(120);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) { if (pulled >= 60_000_000) return c.close(); pulled += chunk.length; c.enqueue(chunk); },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

test("a wrong unsubscribe token is 404 without reading the body", async () => {
  const body = hugeBody();
  const res = await t.app.http(new Request("http://localhost/t/u/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { method: "POST", body: body.stream, headers: { "content-type": "text/plain" } }));
  expect(res.status).toBe(404);
  expect(body.pulled()).toBeLessThanOrEqual(65_536);
});

test("a real unsubscribe link reads at most a few kilobytes of a huge body and still unsubscribes", async () => {
  const token = t.app.codec.sign({ kind: "unsubscribe", messageId: "m1", recipientId: "r1", domain: "example.com" });
  const body = hugeBody();
  const res = await t.app.http(new Request(`http://localhost/t/u/${token}`, { method: "POST", body: body.stream }));
  expect(res.status).toBeLessThan(500);
  expect(body.pulled()).toBeLessThan(300_000);
});

test("honeypot memory: 2,000 hits with 17 KB user agents stay small and are still recognised", () => {
  const memory = createHoneypotMemory({ now: () => 0 });
  Bun.gc(true);
  const before = process.memoryUsage().heapUsed;
  const uaOf = (i: number) => `Mozilla/5.0 ${i} ${"x".repeat(17_000)}`;
  for (let i = 0; i < 2000; i++) memory.remember(`203.0.113.${i % 250}`, uaOf(i));
  Bun.gc(true);
  const grown = process.memoryUsage().heapUsed - before;
  expect(grown).toBeLessThan(8_000_000); // the whole user agents would be 34 MB
  expect(memory.isKnown("203.0.113.7", uaOf(7))).toBe(true);
  expect(memory.isKnown("203.0.113.7", uaOf(8))).toBe(false);
});
