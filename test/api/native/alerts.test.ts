// The native alerts API through the real server: GET /alerts (built-in and configured rules, open
// alerts), POST /alerts with the contract's fields (JSON or form), DELETE /alerts/{id}; bad input
// is the native 400 shape; domain keys are refused.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startNative, type NativeEnv } from "./setup.ts";

let env: NativeEnv;
beforeAll(async () => { env = await startNative(); });
afterAll(async () => { await env.close(); });

const post = (body: unknown, key?: string) => env.call("/alerts", { method: "POST", key, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("POST /alerts stores a rule; GET lists it beside the built-in rules; DELETE removes it", async () => {
  const r = await post({ metric: "hard_bounce_rate", threshold: 0.02, window: "30m", min_volume: 50, domain: "Example.com" });
  expect(r.status).toBe(200);
  const { rule } = await r.json();
  expect(rule).toMatchObject({ metric: "hard_bounce_rate", threshold: 0.02, window: "30m", min_volume: 50, domain: "example.com", source: "native" });
  const list = await (await env.call("/alerts")).json();
  expect(list.rules.filter((x: any) => x.built_in).map((x: any) => x.id)).toEqual(["hard_bounce_rate", "block_rate", "complaint_rate_warn",
    "complaint_rate", "queue_age", "certificate", "blocklist", "check", "dkim_pending"]);
  expect(list.rules.find((x: any) => x.id === "hard_bounce_rate")).toEqual({ id: "hard_bounce_rate", metric: "hard_bounce_rate", threshold: 0.05,
    window: "1h", min_volume: 100, domain: null, built_in: true });
  expect(list.rules.find((x: any) => x.id === rule.id)).toMatchObject({ threshold: 0.02, built_in: false });
  expect(list.alerts).toEqual([]);
  const del = await env.call(`/alerts/${rule.id}`, { method: "DELETE" });
  expect(await del.json()).toEqual({ message: "Alert rule deleted", id: rule.id });
  expect((await env.call(`/alerts/${rule.id}`, { method: "DELETE" })).status).toBe(404);
  expect((await env.call("/alerts/hard_bounce_rate", { method: "DELETE" })).status).toBe(404);
});

test("form bodies work; defaults come from the built-in rule of the metric", async () => {
  const r = await env.call("/alerts", { method: "POST", body: new URLSearchParams({ metric: "queue_age", window: "3600" }) });
  expect((await r.json()).rule).toMatchObject({ metric: "queue_age", threshold: 7200, window: "1h", min_volume: 0, domain: null });
});

test("bad input is a 400 in the native shape", async () => {
  const cases: [unknown, RegExp][] = [
    [{ threshold: 0.1 }, /^metric: required/],
    [{ metric: "open_rate" }, /^metric: unknown metric "open_rate"/],
    [{ metric: "block_rate", threshold: 10 }, /^threshold: rates are fractions/],
    [{ metric: "block_rate", threshold: "lots" }, /^threshold: expected a number/],
    [{ metric: "block_rate", window: "forever" }, /^window: expected a duration/],
    [{ metric: "block_rate", min_volume: 1.5 }, /^min_volume: expected a whole number/],
    [{ metric: "block_rate", domain: "not a domain" }, /^domain: expected a domain name/],
  ];
  for (const [body, message] of cases) {
    const r = await post(body);
    expect(r.status).toBe(400);
    const b = await r.json();
    expect(b.status).toBe(400);
    expect(b.message).toMatch(message);
  }
});

test("alerts are the account's: a domain key is refused", async () => {
  expect((await env.call("/alerts", { key: env.t.domainKey })).status).toBe(403);
  expect((await post({ metric: "block_rate" }, env.t.domainKey)).status).toBe(403);
});

test("alerts are the installation's: a tenant's key, and the primary acting for a tenant, are refused", async () => {
  const acme = await env.t.app.tenants.add("acme");
  const key = (await env.t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
  expect((await env.call("/alerts", { key })).status).toBe(403);
  expect((await post({ metric: "hard_bounce_rate", threshold: 0.02 }, key)).status).toBe(403);
  expect((await env.call("/alerts", { headers: { "X-Postern-Tenant": "acme" } })).status).toBe(403);
  expect((await env.call("/alerts")).status).toBe(200);
});
