// The webhook channel against a real local HTTP receiver over the pinned outbound request: the
// body is exactly {alert, signature}, the signature verifies with the signing key, a failed POST is
// tried again, and one that never succeeds is given up and logged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createWebhookChannel } from "../../../src/alerts/channels/webhook.ts";
import { BUILT_IN_RULES } from "../../../src/alerts/rules.ts";
import { pinnedRequest } from "../../../src/net/pinned-request.ts";
import { createMockResolver } from "../../../src/dns.ts";
import { createLogger } from "../../../src/log.ts";
import { hmacVerify } from "../../../src/webhooks/signing.ts";

const KEY = "key-of-the-account";
const seen: { path: string; body: any }[] = [];
let failFirst = 1;
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, body: await req.json() });
    if (path === "/down" || (path === "/flaky" && failFirst-- > 0)) return new Response("no", { status: 503 });
    return new Response("ok");
  } });
});
afterAll(() => server.stop(true));

const lines: string[] = [];
const channel = (url: string, extraRule: string[] = []) => ({
  channel: createWebhookChannel({ url, signingKey: KEY, now: () => 1_800_000_000_000, retry: [10, 10],
    log: createLogger({ level: "warn", write: (l) => lines.push(l) }),
    send: (u, init) => pinnedRequest(u, init, { allowPrivate: true, resolver: createMockResolver({}), timeoutMs: 2000 }) }),
  rule: { ...BUILT_IN_RULES[0]!, webhooks: extraRule },
});
const notice = { id: "al_1", rule: "hard_bounce_rate", state: "firing" as const, subject: "example.com", value: 0.1, threshold: 0.05, at: "2027-01-15T08:00:00.000Z" };

test("the body is the alert and a signature that verifies with the account's key; the rule's own URLs get it too", async () => {
  const { channel: c, rule } = channel(`http://127.0.0.1:${server.port}/main`, [`http://127.0.0.1:${server.port}/rule`]);
  await c.deliver(notice, rule);
  const main = seen.find((s) => s.path === "/main")!.body;
  expect(main).toEqual({ alert: notice, signature: { timestamp: "1800000000", token: expect.stringMatching(/^[0-9a-f]{50}$/), signature: expect.any(String) } });
  expect(hmacVerify(KEY, main.signature)).toBe(true);
  expect(hmacVerify("another", main.signature)).toBe(false);
  expect(seen.some((s) => s.path === "/rule")).toBe(true);
});

test("a failed POST is tried again; one that keeps failing is given up and logged", async () => {
  await channel(`http://127.0.0.1:${server.port}/flaky`).channel.deliver(notice, channel("").rule);
  expect(seen.filter((s) => s.path === "/flaky")).toHaveLength(2);
  await channel(`http://127.0.0.1:${server.port}/down`).channel.deliver(notice, channel("").rule);
  expect(seen.filter((s) => s.path === "/down")).toHaveLength(3);
  expect(lines.some((l) => l.includes("alert webhook not delivered") && l.includes("HTTP 503"))).toBe(true);
});
