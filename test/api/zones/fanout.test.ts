// Account-wide listings gathered from every zone, against a real second HTTP server standing in for
// the eu node (it pages its 700 SendGrid bounces as postern does and records what it is asked):
// an offset page deep in the list needs more than one of the zone's pages; a lookup this node
// lacks is the zone's; the zone is asked with the loop guard and the caller's key.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@sendgrid/client";
import SparkPost from "sparkpost";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { PROXIED_HEADER } from "../../../src/api/zones/proxy.ts";
import { pointClient } from "../sendgrid/setup.ts";

setDefaultTimeout(60_000);
const EU = Array.from({ length: 700 }, (_, i) => ({ created: 2_000_000 - 2 * i, email: `e${i}@dest.test`, reason: "gone", status: "5.1.1" }));
// The eu node's counters (windows as it computed them; only `used` is added up).
const EU_USAGE = { timestamp: "2000-01-01T00:00:00.000Z", day: { used: 5, limit: 0, start: "x", end: "x" }, month: { used: 40, limit: 0, start: "x", end: "x" } };
let asked: { method: string; path: string; query: URLSearchParams; headers: Headers }[] = [];
let eu: ReturnType<typeof Bun.serve>;
let t: TestApp;
let sg: Client;
let base = "";

beforeAll(async () => {
  eu = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    fetch(req) {
      const url = new URL(req.url);
      asked.push({ method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers });
      if (url.pathname === "/v3/suppression/bounces") {
        const offset = Number(url.searchParams.get("offset") ?? 0);
        return Response.json(EU.slice(offset, offset + Math.min(Number(url.searchParams.get("limit") ?? 500), 500)));
      }
      if (url.pathname === "/api/v1/account") return Response.json({ results: { customer_id: 1, status: "active", usage: EU_USAGE } });
      if (url.pathname === "/v3/asm/suppressions/global/only-eu@dest.test") return Response.json({ recipient_email: "only-eu@dest.test" });
      if (req.method === "DELETE") return new Response(null, { status: 204 });
      return Response.json({});
    },
  });
  t = await makeTestApp({ toml: `[zones]\nnames = ["us", "eu"]\nproxy_timeout = "5s"\n[zones.eu]\nurl = "http://127.0.0.1:${eu.port}"\n` });
  // One bounce here, between the zone's 500th and 501st by time.
  await t.app.suppressions.add("example.com", "bounces", [{ address: "here@dest.test", reason: "gone", code: "5.1.1", createdAt: (2_000_000 - 999) * 1000 }]);
  await t.app.suppressions.add("example.com", "unsubscribes", [{ address: "only-here@dest.test", reason: "global unsubscribe (API)" }]);
  base = `http://${(await t.app.start()).http}`;
  sg = new Client();
  pointClient(sg, t.accountKey, `${base}/`);
});
afterAll(async () => { await t.close(); eu.stop(true); });

const get = async (url: string, qs: Record<string, unknown> = {}) => (await sg.request({ method: "GET", url, qs }))[1] as any;

describe("account-wide listings gathered from every zone", () => {
  test("a SendGrid page deep in the list: the zone is asked page by page up to offset+limit, the page cut from the merged order", async () => {
    asked = [];
    const page = await get("/v3/suppression/bounces", { offset: 499, limit: 3 });
    expect(page.map((b: { email: string }) => b.email)).toEqual(["e499@dest.test", "here@dest.test", "e500@dest.test"]);
    expect(asked.map((a) => `${a.query.get("offset")}+${a.query.get("limit")}`)).toEqual(["0+500", "500+2"]);
    expect(asked[0]!.headers.get(PROXIED_HEADER)).toBe("us");
    expect(asked[0]!.headers.get("authorization")).toBe(`Bearer ${t.accountKey}`);
    const first = await get("/v3/suppression/bounces", { limit: 2 });
    expect(first.map((b: { email: string }) => b.email)).toEqual(["e0@dest.test", "e1@dest.test"]);
  });

  test("a lookup: answered here when this node has it (the zone is not asked), else by the zone that has it", async () => {
    asked = [];
    expect(await get("/v3/asm/suppressions/global/only-here@dest.test")).toEqual({ recipient_email: "only-here@dest.test" });
    expect(asked).toEqual([]);
    expect(await get("/v3/asm/suppressions/global/only-eu@dest.test")).toEqual({ recipient_email: "only-eu@dest.test" });
    expect(await get("/v3/asm/suppressions/global/nowhere@dest.test")).toEqual({});
  });

  test("a write naming no domain (an account key's global unsubscribe removed) is done here, then sent to the zone", async () => {
    asked = [];
    const [res] = await sg.request({ method: "DELETE", url: "/v3/asm/suppressions/global/only-here@dest.test" });
    expect(res.statusCode).toBe(204);
    expect(await t.app.suppressions.get("example.com", "unsubscribes", "only-here@dest.test").catch(() => null)).toBeNull();
    expect(asked.map((a) => a.path)).toEqual(["/v3/asm/suppressions/global/only-here@dest.test"]);
    expect(asked[0]!.headers.get(PROXIED_HEADER)).toBe("us");
  });

  test("a domain key's listing is its own domain's: served here, the zone is not asked", async () => {
    asked = [];
    const own = new Client();
    pointClient(own, t.domainKey, `${base}/`);
    const [, mine] = await own.request({ method: "GET", url: "/v3/suppression/bounces" });
    expect((mine as { email: string }[]).map((b) => b.email)).toEqual(["here@dest.test"]);
    expect(asked).toEqual([]);
  });

  test("SparkPost's account with include=usage: each window's sends added over the zones, the account and windows this node's", async () => {
    const sp = new SparkPost(t.accountKey, { origin: base });
    await sp.transmissions.send({ recipients: [{ address: "u1@dest.test" }, { address: "u2@dest.test" }], content: { from: "a@example.com", subject: "s", text: "t" } });
    asked = [];
    const { results } = await sp.get({ uri: "account", qs: { include: "usage" } }) as any;
    expect(asked.map((a) => `${a.path}?${a.query}`)).toEqual(["/api/v1/account?include=usage"]);
    expect(asked[0]!.headers.get(PROXIED_HEADER)).toBe("us");
    expect(results).toMatchObject({ customer_id: 1, status: "active", usage: { day: { used: 2 + 5, limit: 0 }, month: { used: 2 + 40, limit: 0 } } });
    expect(results.usage.day.start).not.toBe("x");
    // Without usage the account is control data: answered here, no zone asked.
    asked = [];
    expect((await sp.get({ uri: "account" }) as any).results.usage).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
