// SparkPost /api/v1/alerts through the official client's generic request: hard_bounce_rate and
// block_bounce_rate map onto postern's rules (values in percent, one sending_domain filter,
// channels), what cannot map is SparkPost's 422, and a rule's webhook channel gets signed alerts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";
import { hmacVerify } from "../../../src/webhooks/signing.ts";

let env: SpEnv;
let receiver: ReturnType<typeof Bun.serve>;
const posted: any[] = [];
beforeAll(async () => {
  env = await startSpEnv();
  receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => { posted.push(await req.json()); return new Response("ok"); } });
});
afterAll(async () => { await env.close(); receiver.stop(true); });

/** The client's generic request (in its JavaScript, not in its type declarations). */
type Generic = { request(o: { method: string; uri: string; json?: unknown }): Promise<any> };
const generic = (client: unknown) => client as Generic;
const request = (method: string, uri: string, json?: unknown) => generic(env.account).request({ method, uri, json: json ?? true });

test("create, list, read, update and delete a block_bounce_rate alert", async () => {
  const made = await request("POST", "alerts", { name: "Blocks at example.com", metric: "block_bounce_rate",
    threshold_evaluator: { source: "raw", operator: "gt", value: 12.5 }, filters: [{ filter_type: "sending_domain", filter_values: ["example.com"] }],
    channels: { emails: ["ops@dest.test"] }, muted: false });
  const id = made.results.id;
  expect(id).toMatch(/^\d+$/);
  const rule = (await env.t.app.alerts.configured()).find((r) => String(r.id) === id)!;
  expect(rule).toMatchObject({ metric: "block_rate", threshold: 0.125, domain: "example.com", minVolume: 100, source: "sparkpost" });
  expect((await request("GET", "alerts")).results.map((a: any) => a.id)).toEqual([id]);
  expect((await request("GET", `alerts/${id}`)).results).toEqual({ id, name: "Blocks at example.com", metric: "block_bounce_rate",
    threshold_evaluator: { source: "raw", operator: "gt", value: 12.5 }, channels: { emails: ["ops@dest.test"], webhooks: [] },
    filters: [{ filter_type: "sending_domain", filter_values: ["example.com"] }], any_subaccount: false, muted: false, created: expect.any(String) });
  const put = await request("PUT", `alerts/${id}`, { name: "Blocks", metric: "block_bounce_rate", threshold_evaluator: { value: 20 }, muted: true });
  expect(put.results).toMatchObject({ name: "Blocks", threshold_evaluator: { value: 20 }, filters: [], muted: true });
  await request("DELETE", `alerts/${id}`);
  expect((await failure(request("GET", `alerts/${id}`))).statusCode).toBe(404);
});

test("what cannot map is SparkPost's 422", async () => {
  const base = { name: "x", metric: "hard_bounce_rate", threshold_evaluator: { source: "raw", operator: "gt", value: 5 } };
  for (const body of [{ ...base, metric: "health_score" }, { ...base, metric: "soft_bounce_rate" },
    { ...base, threshold_evaluator: { source: "raw", operator: "lt", value: 5 } }, { ...base, threshold_evaluator: { source: "delta", operator: "gt", value: 5 } },
    { ...base, filters: [{ filter_type: "mailbox_provider", filter_values: ["gmail"] }] }]) {
    const f = await failure(request("POST", "alerts", body));
    expect(f.statusCode).toBe(422);
    expect(f.errors[0]).toMatchObject({ message: "invalid data format/type", code: "1300" });
  }
  const missing = await failure(request("POST", "alerts", { name: "x" }));
  expect([missing.statusCode, missing.errors[0]!.code]).toEqual([422, "1400"]);
});

test("a domain key is refused", async () => {
  expect((await failure(generic(env.domain).request({ method: "GET", uri: "alerts" }))).statusCode).toBe(403);
});

test("a hard_bounce_rate alert's webhook channel gets the alert, signed as native webhooks", async () => {
  await request("POST", "alerts", { name: "Hard", metric: "hard_bounce_rate", threshold_evaluator: { value: 2 },
    channels: { webhooks: [`http://127.0.0.1:${receiver.port}/alerts`] } });
  const fired = await env.t.app.alerts.observe({ rule: "hard_bounce_rate", subject: "example.com", value: 0.03 });
  expect(fired.map((n) => [n.rule, n.threshold])).toEqual([["hard_bounce_rate", 0.02]]);
  await env.t.app.alerts.settled();
  const body = posted.find((p) => p.alert.id === fired[0]!.id);
  expect(body.alert).toMatchObject({ rule: "hard_bounce_rate", state: "firing", subject: "example.com", value: 0.03, threshold: 0.02 });
  expect(hmacVerify((await env.t.app.store.control.getAccount())!.webhookSigningKey, body.signature)).toBe(true);
});

test("alerts are the installation's: a subaccount's key neither reads, makes nor deletes them", async () => {
  const rule = await request("POST", "alerts", { name: "primary's", metric: "hard_bounce_rate", threshold_evaluator: { value: 5 },
    filters: [{ filter_type: "sending_domain", filter_values: ["example.com"] }] });
  const made = await env.account.subaccounts.create({ name: "acme", key_label: "acme", key_grants: ["alerts/manage"] });
  const acme = (method: string, uri: string, json?: unknown) => generic(env.client(made.results.key)).request({ method, uri, json: json ?? true });
  expect((await failure(acme("GET", "alerts"))).statusCode).toBe(403);
  expect((await failure(acme("DELETE", `alerts/${rule.results.id}`))).statusCode).toBe(403);
  expect((await failure(acme("POST", "alerts", { name: "x", metric: "hard_bounce_rate", threshold_evaluator: { value: 5 } }))).statusCode).toBe(403);
  expect((await request("GET", `alerts/${rule.results.id}`)).results.name).toBe("primary's");
});
