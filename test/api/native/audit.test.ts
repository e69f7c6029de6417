// GET /audit through a running server: changes made with an account key over the native API, over
// another surface (SparkPost's API keys) and in process (no actor: not recorded) read back with
// their actor, target and client address; filters, paging and the refusals.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startNative, type NativeEnv } from "./setup.ts";

let env: NativeEnv;
let keyId = "";
beforeAll(async () => {
  env = await startNative();
  keyId = env.t.accountKey.split(".")[1]!;
});
afterAll(() => env.close());

test("a change through a surface is recorded with the key that made it; in-process changes outside any request are not", async () => {
  await env.t.app.domains.add("quiet.test"); // no request, no CLI: no actor
  const form = new FormData();
  form.set("address", "gone@example.com");
  form.set("type", "bounce");
  expect((await env.call("/example.com/suppress", { method: "POST", body: form })).status).toBe(200);
  const made = await fetch(`${env.base}/api/v1/api-keys`, { method: "POST", headers: { authorization: env.t.accountKey, "content-type": "application/json" },
    body: JSON.stringify({ label: "ci", grants: ["metrics/view"] }) });
  expect(made.status).toBe(200);
  const newKey = ((await made.json()) as { results: { id: string } }).results.id;

  const res = await env.call("/audit");
  expect(res.status).toBe(200);
  const page = await res.json();
  expect(page.next_cursor).toBeNull();
  expect(page.items.map((e: { action: string }) => e.action)).toEqual(["key.create", "suppression.add"]);
  expect(page.items[0]).toEqual({ id: expect.any(String), at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), actor: { kind: "key", id: keyId }, tenant: 0,
    action: "key.create", target: newKey, ip: "127.0.0.1" });
  expect(page.items[1].target).toBe("example.com/bounces/gone@example.com");
});

test("filters: actor kind or id, action or family, from/to as ISO 8601 or Unix seconds; paging by cursor", async () => {
  const all = (await (await env.call("/audit")).json()).items as { id: string; at: string }[];
  expect((await (await env.call(`/audit?actor=${keyId}&action=key`)).json()).items.length).toBe(1);
  expect((await (await env.call("/audit?actor=cli")).json()).items).toEqual([]);
  expect((await (await env.call("/audit?action=suppression.add")).json()).items.length).toBe(1);
  const future = Math.floor(Date.now() / 1000) + 3600;
  expect((await (await env.call(`/audit?from=${future}`)).json()).items).toEqual([]);
  expect((await (await env.call(`/audit?to=${encodeURIComponent(all[0]!.at)}&from=2020-01-01T00:00:00Z`)).json()).items.length).toBe(2);
  const first = await (await env.call("/audit?limit=1")).json();
  expect(first.items.length).toBe(1);
  expect(first.next_cursor).toBe(all[0]!.id);
  const second = await (await env.call(`/audit?limit=1&cursor=${first.next_cursor}`)).json();
  expect(second.items[0].id).toBe(all[1]!.id);
  expect(second.next_cursor).toBeNull();
});

test("bad parameters get the native 400; a domain key is refused; there is no route that changes an entry", async () => {
  const bad = await env.call("/audit?from=yesterday");
  expect(bad.status).toBe(400);
  expect((await bad.json()).message).toMatch(/from must be an ISO 8601 date or Unix seconds/);
  expect((await env.call("/audit?limit=0")).status).toBe(400);
  expect((await env.call("/audit", { key: env.t.domainKey })).status).toBe(403);
  for (const method of ["DELETE", "PUT", "PATCH", "POST"]) expect((await env.call("/audit", { method })).status).toBeGreaterThanOrEqual(404);
});

test("changes through the other surfaces are recorded too: Mailgun routes and webhooks, SendGrid groups, SparkPost suppressions", async () => {
  const mg = { authorization: `Basic ${btoa(`api:${env.t.accountKey}`)}` };
  const route = new FormData();
  route.set("expression", 'match_recipient(".*@example.com")');
  route.set("action", 'forward("https://hooks.example.net/in")');
  expect((await fetch(`${env.base}/v3/routes`, { method: "POST", headers: mg, body: route })).status).toBe(200);
  const hook = new FormData();
  hook.set("id", "delivered");
  hook.set("url", "https://hooks.example.net/mg");
  expect((await fetch(`${env.base}/v3/domains/example.com/webhooks`, { method: "POST", headers: mg, body: hook })).status).toBe(200);
  const group = await fetch(`${env.base}/v3/asm/groups`, { method: "POST", headers: { authorization: `Bearer ${env.t.accountKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "news", description: "the newsletter" }) });
  expect(group.status).toBe(201);
  const sp = await fetch(`${env.base}/api/v1/suppression-list`, { method: "PUT", headers: { authorization: env.t.accountKey, "content-type": "application/json" },
    body: JSON.stringify({ recipients: [{ recipient: "x@example.com", type: "non_transactional", description: "asked" }] }) });
  expect(sp.status).toBeLessThan(300);
  const actions = ((await (await env.call("/audit?limit=10")).json()).items as { action: string; actor: { id: string } }[]);
  // SparkPost's account-wide entry lands on every domain the key sees: one suppression.add each.
  const recent = actions.slice(0, actions.findIndex((e) => e.action === "key.create"));
  expect([...new Set(recent.map((e) => e.action))].sort()).toEqual(["group.create", "inbound.create", "suppression.add", "webhook.create"]);
  expect(recent.every((e) => e.actor.id === keyId)).toBe(true);
});
