// The four OpenAPI documents, as the running server serves them: each loads in an OpenAPI 3.1
// validator, lists exactly the routes its surface's router mounts (paths and methods), and /docs
// links them all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { openApiPath } from "../../../src/api/openapi/build.ts";
import { FIELDS } from "../../../src/api/openapi/fields.ts";

let t: TestApp;
let base = "";
beforeAll(async () => { t = await makeTestApp(); base = `http://${(await t.app.start()).http}`; });
afterAll(async () => { await t.app.stop(); await t.close(); });

const SURFACES = ["sendgrid", "mailgun", "sparkpost", "native"] as const;
/** "GET /v3/{}/events": a path's parameters unnamed, since a document may name them its own way. */
const key = (method: string, path: string) => `${method.toUpperCase()} ${openApiPath(path).replace(/\{[^}]+\}/g, "{}")}`;

describe("OpenAPI documents at /docs/<surface>.json", () => {
  for (const surface of SURFACES) {
    test(`${surface}: valid OpenAPI 3.1, and its operations are exactly the mounted routes`, async () => {
      const res = await fetch(`${base}/docs/${surface}.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(doc.openapi).toBe("3.1.0");
      const result = await new Validator().validate(structuredClone(doc));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => key(m, path))).sort();
      const routes = ((t.app.surfaces as Record<string, { routes?: { method: string; path: string }[] }>)[surface]!.routes ?? [])
        .filter((r) => !["ALL", "HEAD", "OPTIONS"].includes(r.method)).map((r) => key(r.method, r.path));
      expect(documented).toEqual([...new Set(routes)].sort());
    });
  }

  test("the main send routes carry their fields, and errors their vendor's shape", async () => {
    const sg = (await (await fetch(`${base}/docs/sendgrid.json`)).json()) as any;
    const send = sg.paths["/v3/mail/send"].post;
    expect(send.requestBody.content["application/json"].schema.required).toEqual(["personalizations", "from"]);
    expect(sg.components.schemas.Error.properties.errors.items.properties).toHaveProperty("field");
    const mg = (await (await fetch(`${base}/docs/mailgun.json`)).json()) as any;
    expect(Object.keys(mg.paths["/v3/{domain}/messages"].post.requestBody.content)).toContain("multipart/form-data");
    expect(mg.components.responses.E401.content).toHaveProperty("text/plain");
    const sp = (await (await fetch(`${base}/docs/sparkpost.json`)).json()) as any;
    expect(sp.paths["/api/v1/transmissions"].post.requestBody.content["application/json"].schema.required).toEqual(["recipients", "content"]);
    expect(sp.components.schemas.Error.properties.errors.items.properties).toHaveProperty("code");
  });

  test("every route given fields is a mounted route (a renamed route cannot keep stale fields)", () => {
    for (const surface of ["sendgrid", "mailgun", "sparkpost"] as const) {
      const mounted = new Set(((t.app.surfaces as Record<string, { routes?: { method: string; path: string }[] }>)[surface]!.routes ?? [])
        .map((r) => `${r.method} ${openApiPath(r.path)}`));
      expect(Object.keys(FIELDS[surface]).filter((k) => !mounted.has(k))).toEqual([]);
    }
  });

  test("/docs links all four", async () => {
    const page = await (await fetch(`${base}/docs`)).text();
    for (const s of SURFACES) expect(page).toContain(`href="/docs/${s}.json"`);
  });
});
