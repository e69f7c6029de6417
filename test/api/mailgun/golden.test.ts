// Golden request → response pairs of test/fixtures/requests/mailgun, run in-process.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

interface Fixture {
  about: string;
  request: { method: string; path: string; key?: string; form?: [string, string][]; json?: unknown; headers?: Record<string, string> };
  response: { status: number; body?: unknown; text?: string; match?: Record<string, unknown>; pattern?: Record<string, string> };
}

const DIR = join(import.meta.dir, "../../fixtures/requests/mailgun");
const fixtures = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort()
  .map((f) => [f, JSON.parse(readFileSync(join(DIR, f), "utf8")) as Fixture] as const);

let t: TestApp;
beforeAll(async () => { t = await makeTestApp(); });
afterAll(async () => { await t.close(); });

function bodyOf(req: Fixture["request"]): { body?: FormData | string; headers: Record<string, string> } {
  if (req.form) {
    const form = new FormData();
    for (const [k, v] of req.form) form.append(k, v);
    return { body: form, headers: {} };
  }
  if (req.json !== undefined) return { body: JSON.stringify(req.json), headers: { "content-type": "application/json" } };
  return { headers: {} };
}

describe("Mailgun golden requests", () => {
  for (const [file, fx] of fixtures) {
    test(`${file}: ${fx.about}`, async () => {
      const key = fx.request.key === "domain" ? t.domainKey : fx.request.key === undefined || fx.request.key === "account" ? t.accountKey : fx.request.key;
      const { body, headers } = bodyOf(fx.request);
      const res = await t.app.http(new Request(`http://127.0.0.1${fx.request.path}`, {
        method: fx.request.method, body, headers: { ...headers, ...fx.request.headers, authorization: `Basic ${btoa(`api:${key}`)}` } }));
      expect(res.status).toBe(fx.response.status);
      if (fx.response.text !== undefined) return expect(await res.text()).toBe(fx.response.text);
      const json = (await res.json()) as Record<string, string>;
      if (fx.response.body !== undefined) expect(json).toEqual(fx.response.body as Record<string, string>);
      if (fx.response.match) expect(json).toMatchObject(fx.response.match);
      for (const [k, p] of Object.entries(fx.response.pattern ?? {})) expect(json[k]).toMatch(new RegExp(p));
    });
  }
});
