// Seeded fuzzing through the real HTTP handler: a few thousand hostile requests over every route
// of every surface (every method, broken escapes, odd bodies and content types, good and bad
// keys). Not one may answer 5xx; the seed is fixed, so a failure names a reproducible index.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { fuzzRequest, rng } from "../helpers/fuzz.ts";

const SEED = 20261124;
const COUNT = 3000;

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  await t.app.domains.add("second.test");
  await t.app.domains.verify("second.test", true);
});
afterAll(async () => { await t.close(); });

test(`${COUNT} fuzzed requests (seed ${SEED}) get no 5xx`, async () => {
  const routes = Object.values(t.app.surfaces as Record<string, { routes?: { path: string }[] }>)
    .flatMap((s) => (s.routes ?? []).map((r) => r.path));
  expect(routes.length).toBeGreaterThan(100);
  const restricted = (await t.app.access.createKey({ kind: "account", grants: ["metrics/view"] })).key;
  const keys = [t.accountKey, t.domainKey, restricted, "pk.aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "garbage key", null];
  const r = rng(SEED);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < COUNT; i++) {
    const f = fuzzRequest(r, routes, keys);
    let status: number;
    try {
      const req = new Request(`http://localhost${f.path}`, { method: f.method, headers: f.headers, body: f.body });
      const res = await t.app.http(req);
      status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      status = 599;
      failures.push(`#${i} ${f.method} ${f.path.slice(0, 120)} threw ${String(err).slice(0, 200)}`);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status >= 500 && status !== 599) failures.push(`#${i} ${f.method} ${f.path.slice(0, 120)} [${f.headers["content-type"]}] → ${status}`);
  }
  // Sanity: the fuzzer reached handlers (2xx) and refusals alike, not just 404s.
  expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
  expect(failures.slice(0, 40)).toEqual([]);
}, 300_000);

test("every method on every mounted path, with each kind of key and no body, gets no 5xx", async () => {
  const paths = [...new Set(Object.values(t.app.surfaces as Record<string, { routes?: { path: string }[] }>)
    .flatMap((s) => (s.routes ?? []).map((r) => r.path.replace(/:domain/g, "example.com").replace(/:\w+/g, "x"))))];
  const headers: Record<string, string>[] = [{ "ov-token": t.domainKey }, { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` }, { authorization: t.domainKey },
    { authorization: `Bearer ${t.domainKey}` }, {}];
  const wrong: string[] = [];
  for (const path of paths) for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]) for (const h of headers) {
    const res = await t.app.http(new Request(`http://localhost${path}`, { method, headers: h }));
    if (res.status >= 500) wrong.push(`${method} ${path} → ${res.status}`);
  }
  expect(wrong).toEqual([]);
}, 120_000);
