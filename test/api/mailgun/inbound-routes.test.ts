// Mailgun routes (src/api/mailgun/inbound-routes.ts) through the official mailgun.js client: create,
// read, list in priority order, update, match an address, delete; bad input is Mailgun's 400, and a
// domain key is refused (routes are account-wide).
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

describe("routes through mailgun.js", () => {
  test("create, get, list by priority, update, match and delete", async () => {
    const support = await h.mg.routes.create({ priority: 5, description: "support", expression: 'match_recipient("support@example.com")',
      action: ["forward(\"http://127.0.0.1:9/support\")", "stop()"] });
    expect(support).toMatchObject({ priority: 5, description: "support", expression: 'match_recipient("support@example.com")',
      actions: ['forward("http://127.0.0.1:9/support")', "stop()"] });
    const all = await h.mg.routes.create({ priority: 10, description: "catch-all", expression: 'match_recipient(".*@example.com")', action: ["store()"] });
    expect((await h.mg.routes.get(support.id)).id).toBe(support.id);
    expect((await h.mg.routes.list({})).map((r) => r.id)).toEqual([support.id, all.id]);
    const updated = await h.mg.routes.update(support.id, { priority: 20 } as never);
    expect(updated).toMatchObject({ message: "Route has been updated", priority: 20 });
    expect((await h.mg.routes.list({})).map((r) => r.id)).toEqual([all.id, support.id]);
    const matched = await jsonOf(await h.call("GET", "/v3/routes/match?address=someone@example.com"));
    expect(matched.route.id).toBe(all.id);
    expect((await h.call("GET", "/v3/routes/match?address=someone@elsewhere.test")).status).toBe(404);
    expect(await h.mg.routes.destroy(all.id)).toMatchObject({ message: "Route has been deleted", id: all.id });
    expect((await h.mg.routes.get(all.id).catch((e) => e)).status).toBe(404);
  });

  test("bad input is a 400 naming the problem; a domain key cannot manage routes", async () => {
    const noExpr = await h.call("POST", "/v3/routes", { body: new URLSearchParams({ priority: "1", action: "stop()" }) });
    expect(noExpr.status).toBe(400);
    expect((await jsonOf(noExpr)).message).toContain("expression");
    const badPrio = await h.call("POST", "/v3/routes", { body: new URLSearchParams({ priority: "-1", expression: "catch_all()", action: "stop()" }) });
    expect(badPrio.status).toBe(400);
    expect((await h.call("GET", "/v3/routes/match")).status).toBe(400);
    const byDomainKey = await h.call("POST", "/v3/routes", { key: h.t.domainKey, body: new URLSearchParams({ expression: "catch_all()", action: "stop()" }) });
    expect(byDomainKey.status).toBeGreaterThanOrEqual(401);
    expect(byDomainKey.status).toBeLessThan(500);
    expect((await h.mg.routes.list({})).some((r) => r.expression === "catch_all()")).toBe(false);
  });
});
