// The request guard's pieces, and the dispatcher's promise for what no client caused: a 5xx that
// names its request id, logged with the same id.
import { describe, expect, test } from "bun:test";
import { canonicalUrl, hostValid, jsonShape, pathDecodes } from "../../src/api/request-guard.ts";
import { createHttpHandler } from "../../src/api/server.ts";
import { createMetrics } from "../../src/metrics.ts";
import type { Logger } from "../../src/log.ts";

describe("canonicalUrl", () => {
  test.each([
    ["http://example.com:8025/v3/x?a=1", "http://example.com:8025/v3/x?a=1"],
    ["http://x:99999/domains/%ZZ", "http://localhost/domains/%ZZ"],
    ["/domains", "http://localhost/domains"],
    ["http://x/domains?q=1", "http://localhost/domains?q=1"],
    ["http://[::1/healthz", "http://localhost/healthz"],
  ])("%s → %s", (raw, href) => {
    expect(canonicalUrl(raw).href).toBe(href);
  });
});

test("pathDecodes refuses broken escapes and lone surrogates only", () => {
  expect(["/domains/%ZZ", "/v3/d/bounces/%ED%A0%80", "/%", "/%E0%A4%A", "/%C0%AF"].filter(pathDecodes)).toEqual([]);
  expect(["/domains/example.com", "/v3/d/bounces/a%40b.c", "/%F0%9F%98%80", "/%25"].every(pathDecodes)).toBe(true);
});

test("jsonShape: depth, values and lone surrogates, strings skipped", () => {
  expect(jsonShape('{"a":[1,2,{"b":"[[[["}]}')).toEqual({ depth: 3, values: 5, loneSurrogate: false });
  expect(jsonShape("[".repeat(50_000)).depth).toBe(50_000);
  expect(jsonShape('["\\ud83d\\ude00", "\\\\ud800"]').loneSurrogate).toBe(false);
  expect(jsonShape('["\\ud800"]').loneSurrogate).toBe(true);
  expect(jsonShape('["\\udc00x"]').loneSurrogate).toBe(true);
  expect(jsonShape('["\\ud800\\u0041"]').loneSurrogate).toBe(true);
});

test("an unexpected failure is a 5xx in the surface's shape naming the request id, which the log line carries", async () => {
  const lines: Record<string, unknown>[] = [];
  const log = { error: (_m: string, f: Record<string, unknown>) => lines.push(f), warn() {}, info() {}, debug() {}, child() { return log; } } as unknown as Logger;
  const handle = createHttpHandler({
    authenticate: async () => ({ accountId: 1, keyId: "k", kind: "account", domain: null, grants: [] }),
    surfaces: { sparkpost: { handle: () => { throw new Error("boom at a place the client must not see"); } } },
    health: async () => ({}), metrics: createMetrics(), log, now: () => Date.now(), clientIp: () => "127.0.0.1",
  });
  const res = await handle(new Request("http://localhost/api/v1/account", { headers: { authorization: "k" } }));
  expect(res.status).toBe(500);
  const id = res.headers.get("x-request-id")!;
  const body = (await res.json()) as { errors: { description: string }[] };
  expect(body.errors[0]!.description).toBe(`Internal server error (request id ${id})`);
  expect(JSON.stringify(body)).not.toContain("boom");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ requestId: id, surface: "sparkpost" });
  expect(String(lines[0]!.error)).toContain("boom");
});

describe("hostValid (RFC 9112 §3.2, RFC 3986 §3.2.2)", () => {
  test("one host[:port]: names, IPv4, IP literals, an empty port", () => {
    for (const h of ["x", "mail.example.com", "127.0.0.1:8080", "[::1]", "[::1]:443", "a-b_c.example:", "xn--bcher-kva.example", "%41.example", null]) {
      expect(hostValid(h)).toBe(true);
    }
  });
  test("empty, repeated (Bun joins them with a comma), a port over 65535, an unclosed [, a space: refused", () => {
    for (const h of ["", "a, b", "a,b", "x:99999", "x:65536", "[::1", "::1", "a b", "a/b", "a@b", "x:8o", "[::1]x"]) {
      expect(hostValid(h)).toBe(false);
    }
  });
});
