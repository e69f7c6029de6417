// Golden request → response pairs (test/fixtures/requests/sparkpost/*.json), called in-process.
// "<any>" in an expected body stands for any value (ids, keys).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";

const DIR = join(import.meta.dir, "../../fixtures/requests/sparkpost");

interface Golden {
  name: string;
  request: { method: string; path: string; key: "domain" | "account" | string; body?: unknown };
  status: number;
  response: unknown;
}

function expected(v: unknown): unknown {
  if (v === "<any>") return expect.anything();
  if (Array.isArray(v)) return v.map(expected);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x)]));
  return v;
}

let t: TestApp;
beforeAll(async () => { t = await makeTestApp(); });
afterAll(async () => { await t.close(); });

describe("SparkPost golden requests", () => {
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json")).sort()) {
    const g = JSON.parse(readFileSync(join(DIR, file), "utf8")) as Golden;
    test(`${file}: ${g.name}`, async () => {
      const key = g.request.key === "domain" ? t.domainKey : g.request.key === "account" ? t.accountKey : g.request.key;
      const res = await t.app.http(new Request(`http://127.0.0.1${g.request.path}`, {
        method: g.request.method, headers: { authorization: key, "content-type": "application/json" },
        body: g.request.body === undefined ? undefined : JSON.stringify(g.request.body),
      }));
      expect(res.headers.get("content-type")).toContain("application/json");
      expect({ status: res.status, body: await res.json() }).toMatchObject({ status: g.status, body: expected(g.response) as object });
    });
  }
});
