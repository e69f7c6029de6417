// Pinned egress: the name is resolved once through the injected resolver, every address checked,
// and the connection made to the checked address with the URL's Host and TLS name; no redirects,
// a size cap and a deadline. Real local servers on 127.0.0.1, a real TLS handshake.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMockResolver, type Resolver } from "../../src/dns.ts";
import { pinnedRequest } from "../../src/net/pinned-request.ts";

let hits: Request[] = [];
let internal: ReturnType<typeof Bun.serve>;
let tlsServer: ReturnType<typeof Bun.serve>;
let ca = "";
const dir = mkdtempSync(join(tmpdir(), "postern-pinned-"));

beforeAll(() => {
  internal = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) {
    hits.push(req);
    const path = new URL(req.url).pathname;
    if (path === "/redirect") return new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${internal.port}/secret` } });
    if (path === "/big") return new Response("x".repeat(1_000_000));
    if (path === "/hang") return new Promise<Response>(() => {});
    return new Response(`internal secret; host=${req.headers.get("host")}`);
  } });
  // A certificate for hooks.test only: the handshake succeeds only if the TLS name is the URL's.
  const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
    "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test"]);
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr}`);
  ca = readFileSync(join(dir, "c.pem"), "utf8");
  tlsServer = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert: ca, key: readFileSync(join(dir, "k.pem"), "utf8") },
    fetch: (req) => new Response(`tls ok; host=${req.headers.get("host")}`) });
});
afterAll(() => { internal.stop(true); tlsServer.stop(true); rmSync(dir, { recursive: true, force: true }); });

/** Public at the check, loopback at any later look-up (DNS rebinding). */
function rebinding(): Resolver & { calls: number } {
  const r = { ...createMockResolver({}), calls: 0, a: async () => (r.calls++ === 0 ? ["192.0.2.1"] : ["127.0.0.1"]), aaaa: async () => [] as string[] };
  return r;
}

describe("pinned egress", () => {
  test("a name that resolves public at the check and 127.0.0.1 later never reaches the internal service", async () => {
    hits = [];
    const resolver = rebinding();
    const err = await pinnedRequest(`http://rebind.test:${internal.port}/secret`, { body: "{}" }, { allowPrivate: false, resolver, timeoutMs: 700 })
      .then(() => null, (e) => e as Error);
    expect(err).not.toBeNull();
    expect(hits).toHaveLength(0);
    expect(resolver.calls).toBe(1); // resolved once, never again for the connection
  });

  test("a name resolving to loopback is refused before any connection", async () => {
    hits = [];
    const resolver = createMockResolver({ "inside.test": { a: ["127.0.0.1"] } });
    const err = await pinnedRequest(`http://inside.test:${internal.port}/secret`, {}, { allowPrivate: false, resolver, timeoutMs: 700 }).catch((e) => e);
    expect(err).toMatchObject({ code: "EGRESS_REFUSED" });
    expect(hits).toHaveLength(0);
  });

  test("https to the checked address keeps the Host header and the TLS name (the certificate is for the name only)", async () => {
    const resolver = createMockResolver({ "hooks.test": { a: ["127.0.0.1"] } });
    const res = await pinnedRequest(`https://hooks.test:${tlsServer.port}/hook`, { body: "{}" }, { allowPrivate: true, resolver, timeoutMs: 3_000, ca });
    expect(res.status).toBe(200);
    expect(res.body).toBe(`tls ok; host=hooks.test:${tlsServer.port}`);
  });

  test("redirects are not followed, answers are cut at the cap, and a hung target ends at the deadline", async () => {
    const resolver = createMockResolver({ "hooks.test": { a: ["127.0.0.1"] } });
    const opts = { allowPrivate: true, resolver, timeoutMs: 500, maxResponseBytes: 1024 };
    hits = [];
    const redirected = await pinnedRequest(`http://hooks.test:${internal.port}/redirect`, {}, opts);
    expect(redirected.status).toBe(302);
    expect(hits.map((h) => new URL(h.url).pathname)).toEqual(["/redirect"]);
    expect((await pinnedRequest(`http://hooks.test:${internal.port}/big`, {}, opts)).body.length).toBe(1024);
    const started = Date.now();
    const err = await pinnedRequest(`http://hooks.test:${internal.port}/hang`, {}, opts).catch((e) => e);
    expect(err).toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("only http and https", async () => {
    const err = await pinnedRequest("file:///etc/passwd", {}, { allowPrivate: true, resolver: createMockResolver({}), timeoutMs: 500 }).catch((e) => e);
    expect(err).toMatchObject({ code: "EGRESS_REFUSED" });
  });
});
