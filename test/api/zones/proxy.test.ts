import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { forwardToZone, isProxyFailure, PROXIED_HEADER, targetUrl, type ProxyFailure } from "../../../src/api/zones/proxy.ts";

// A real second HTTP server as the zone's node: it records what arrives and answers per path.
interface Seen { method: string; url: string; headers: Headers; body: Uint8Array }
let seen: Seen[] = [];
let release: () => void = () => {};
let target: ReturnType<typeof Bun.serve>;
const zoneAt = (url: string) => ({ zone: "eu", url, publicUrl: url });
const opts = { fromZone: "us", clientIp: "203.0.113.9", requestId: "req-1", timeoutMs: 5_000 };

beforeAll(() => {
  target = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/slow") { await Bun.sleep(2_000); return new Response("late"); }
      if (path === "/stream") {
        // The first chunk now, the rest only when the test says: a buffering proxy would hang.
        const gate = new Promise<void>((r) => { release = r; });
        return new Response(new ReadableStream({
          async start(c) { c.enqueue(new TextEncoder().encode("first;")); await gate; c.enqueue(new TextEncoder().encode("rest")); c.close(); },
        }), { headers: { "content-type": "text/plain" } });
      }
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: new Uint8Array(await req.arrayBuffer()) });
      const headers = new Headers({ "content-type": "application/json", "x-zone": "eu" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response(JSON.stringify({ answered: "eu" }), { status: 201, headers });
    },
  });
});
afterAll(() => target.stop(true));
const base = () => `http://127.0.0.1:${target.port}`;

describe("forwardToZone", () => {
  test("passes method, path, query, headers and body through, and the zone's answer back", async () => {
    seen = [];
    const body = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const req = new Request("http://us.node:8025/v3/eu.test/messages?x=1&y=%20z", {
      method: "POST", body, headers: { authorization: "Basic abc", "content-type": "application/octet-stream", "x-custom": "v", connection: "keep-alive" },
    });
    const res = await forwardToZone(req, zoneAt(base()), opts);
    if (isProxyFailure(res)) throw new Error(res.detail);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-zone")).toBe("eu");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await res.json()).toEqual({ answered: "eu" });
    const got = seen[0]!;
    expect(got.method).toBe("POST");
    expect(new URL(got.url).pathname + new URL(got.url).search).toBe("/v3/eu.test/messages?x=1&y=%20z");
    expect(got.headers.get("authorization")).toBe("Basic abc");
    expect(got.headers.get("x-custom")).toBe("v");
    expect(got.headers.get("x-forwarded-for")).toBe("203.0.113.9");
    expect(got.headers.get(PROXIED_HEADER)).toBe("us");
    expect(got.headers.get("host")).toBe(`127.0.0.1:${target.port}`);
    expect(Buffer.from(got.body).equals(Buffer.from(body))).toBe(true);
  });

  test("a zone url with a base path keeps it in front of the request's path", () => {
    expect(targetUrl("https://eu.example/postern/", new Request("http://x/v3/d.test/events?limit=1"))).toBe("https://eu.example/postern/v3/d.test/events?limit=1");
  });

  test("a browser's same-origin Origin becomes the zone's origin; a foreign one is passed on for the zone to refuse", async () => {
    seen = [];
    await forwardToZone(new Request("http://us.node/ui/api/domains/eu.test", { headers: { origin: "http://us.node", host: "us.node" } }), zoneAt(base()), opts);
    await forwardToZone(new Request("http://us.node/ui/api/domains/eu.test", { headers: { origin: "http://evil.example", host: "us.node" } }), zoneAt(base()), opts);
    expect(seen[0]!.headers.get("origin")).toBe(base());
    expect(seen[1]!.headers.get("origin")).toBe("http://evil.example");
  });

  test("the answer streams: its first chunk arrives before the zone has finished", async () => {
    const res = await forwardToZone(new Request("http://us.node/stream"), zoneAt(base()), opts);
    if (isProxyFailure(res)) throw new Error(res.detail);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first;");
    release();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("rest");
  });

  test("a zone that does not answer in time is a timeout; one that cannot be reached is unreachable", async () => {
    const slow = await forwardToZone(new Request("http://us.node/slow"), zoneAt(base()), { ...opts, timeoutMs: 200 });
    expect((slow as ProxyFailure).kind).toBe("timeout");
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const down = await forwardToZone(new Request("http://us.node/v3/eu.test/events"), zoneAt(`http://127.0.0.1:${port}`), opts);
    expect((down as ProxyFailure).kind).toBe("unreachable");
    expect((down as ProxyFailure).detail).toContain(`127.0.0.1:${port}`);
  });
});

describe("a zone whose answer stalls after its headers", () => {
  test("is cut off after the timeout without a new piece: the upstream is aborted and the client's body ends in an error", async () => {
    let upstreamCancelled = false;
    const stalling = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      fetch: () => new Response(new ReadableStream({
        start(c) { c.enqueue(new TextEncoder().encode("first;")); },
        cancel() { upstreamCancelled = true; },
      }), { headers: { "content-type": "text/plain" } }),
    });
    try {
      const stalls: string[] = [];
      const res = await forwardToZone(new Request("http://us.node/v3/eu.test/events"), zoneAt(`http://127.0.0.1:${stalling.port}`),
        { ...opts, timeoutMs: 300, onStall: (d) => stalls.push(d) });
      if (isProxyFailure(res)) throw new Error(res.detail);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("first;");
      const ended = await reader.read().then(() => "finished", (e: Error) => e.message);
      expect(ended).toMatch(/stalled for 300 ms/);
      expect(stalls).toHaveLength(1);
      for (let i = 0; i < 50 && !upstreamCancelled; i++) await Bun.sleep(20);
      expect(upstreamCancelled).toBe(true);
    } finally { stalling.stop(true); }
  });

  test("through a real listener, a client reading the stalled answer sees it end unfinished instead of hanging", async () => {
    const stalling = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      fetch: () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("first;")); } })),
    });
    const front = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      async fetch(req) {
        const res = await forwardToZone(req, zoneAt(`http://127.0.0.1:${stalling.port}`), { ...opts, timeoutMs: 300 });
        return isProxyFailure(res) ? new Response(res.kind, { status: 503 }) : res;
      },
    });
    try {
      const res = await fetch(`http://127.0.0.1:${front.port}/v3/eu.test/events`);
      expect(res.status).toBe(200);
      const outcome = await Promise.race([res.text().then((t) => `whole body: ${t}`, () => "cut"), Bun.sleep(10_000).then(() => "hung")]);
      expect(outcome).toBe("cut");
    } finally { front.stop(true); stalling.stop(true); }
  });

  test("a slow but steady answer is not cut: each piece resets the wait", async () => {
    const steady = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      fetch: () => new Response(new ReadableStream({
        async start(c) { for (let i = 0; i < 5; i++) { c.enqueue(new TextEncoder().encode(`${i};`)); await Bun.sleep(150); } c.close(); },
      })),
    });
    try {
      const res = await forwardToZone(new Request("http://us.node/x"), zoneAt(`http://127.0.0.1:${steady.port}`), { ...opts, timeoutMs: 400 });
      if (isProxyFailure(res)) throw new Error(res.detail);
      expect(await res.text()).toBe("0;1;2;3;4;");
    } finally { steady.stop(true); }
  });
});
