// Request rate limits through the real HTTP handler: per key and per client IP, answered with each
// vendor's 429 and Retry-After; other keys and other IPs are not held up.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { createRateLimiter } from "../../src/core/rate-limit.ts";

let t: TestApp;
beforeAll(async () => { t = await makeTestApp({ serverToml: "rate_limit_per_key = 5\nrate_limit_per_ip = 20" }); });
afterAll(async () => { await t.close(); });

const get = (path: string, headers: Record<string, string>, peer: string) => t.app.http(new Request(`http://localhost${path}`, { headers }), peer);

test("a key above its rate gets the vendor's 429 on every surface; another key does not", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await get("/domains", { "ov-token": t.accountKey }, `10.1.0.${i}`)).status);
  expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
  expect(statuses[5]).toBe(429);
  const mg = await get("/v4/domains", { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` }, "10.1.1.1");
  expect(mg.status).toBe(429);
  expect(mg.headers.get("retry-after")).toBe("1");
  expect(await mg.json()).toHaveProperty("message");
  const sp = await get("/api/v1/account", { authorization: t.accountKey }, "10.1.1.2");
  expect(sp.status).toBe(429);
  expect(((await sp.json()) as { errors: unknown[] }).errors).toHaveLength(1);
  const sg = await t.app.http(new Request("http://localhost/v3/mail/send", { method: "POST", headers: { authorization: `Bearer ${t.accountKey}` } }), "10.1.1.3");
  expect(sg.status).toBe(429);
  expect(await sg.json()).toEqual({ errors: [{ message: "too many requests", field: null, help: null }] });
  expect((await get("/domains", { "ov-token": t.domainKey }, "10.1.1.4")).status).toBe(200);
});

test("an IP above its rate gets 429, keyed or not; another IP does not", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 21; i++) statuses.push((await get("/test", {}, "10.2.0.1")).status);
  expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
  expect(statuses[20]).toBe(429);
  expect((await get("/test", {}, "10.2.0.2")).status).toBe(401);
});

test("buckets refill at the rate and the table stays bounded", () => {
  let now = 0;
  const l = createRateLimiter({ rate: 2, now: () => now, maxSubjects: 10 });
  expect([l.take("a"), l.take("a"), l.take("a")]).toEqual([0, 0, 1]);
  now += 500;
  expect(l.take("a")).toBe(0);
  for (let i = 0; i < 100; i++) l.take(`s${i}`);
  expect(l.size()).toBe(10);
});
