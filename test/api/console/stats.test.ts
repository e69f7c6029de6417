// Console stats (src/api/console/stats.ts) on a real postern: a delivered message is counted in the
// current hour's and day's bucket under accepted and delivered; a bad range is a 400.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleClient, type ConsoleEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: ConsoleEnv;
let own: ConsoleClient;
const principal = { accountId: 1, keyId: "t", kind: "account" as const, domain: null, grants: [] };
beforeAll(async () => {
  env = await startConsole();
  own = await env.signIn(env.t.domainKey);
  await env.t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: [{ to: [{ email: "r1@dest.test" }, { email: "r2@dest.test" }], subject: "s", text: "x" }] });
  const end = Date.now() + 20_000;
  while ((await env.t.app.activity.events("example.com", { types: ["delivered"], limit: 10 })).length < 2 && Date.now() < end) await Bun.sleep(100);
});
afterAll(async () => { await env.close(); });

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("console stats", () => {
  test("48 hourly buckets ending now count the domain's accepted and delivered mail", async () => {
    const s = await (await own.call("GET", "/stats")).json();
    expect(s.domain).toBe("example.com");
    expect(s.step).toBe(3_600_000);
    expect(s.buckets).toHaveLength(48);
    expect(s.buckets.at(-1)).toBeLessThanOrEqual(Date.now());
    expect(s.series.delivered.at(-1) + s.series.delivered.at(-2)).toBe(2);
    expect(sum(s.series.delivered)).toBe(2);
    expect(sum(s.series.failed)).toBe(0);
    expect(sum(s.series.accepted)).toBeGreaterThan(0);
  });

  test("30 daily buckets; the account key's view of another domain is empty", async () => {
    const s = await (await own.call("GET", "/stats?range=days")).json();
    expect(s.buckets).toHaveLength(30);
    expect(sum(s.series.delivered)).toBe(2);
    const admin = await env.signIn(env.t.accountKey);
    const other = await (await admin.call("GET", "/stats?domain=other.test")).json();
    expect(other.domain).toBe("other.test");
    expect(sum(other.series.delivered)).toBe(0);
  });

  test("an unknown range is a 400", async () => {
    const res = await own.call("GET", "/stats?range=weeks");
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("range");
  });
});

describe("console stats and tenants", () => {
  test("without a domain, a user of one tenant counts its tenant's mail only; a user of every tenant counts all", async () => {
    const app = env.t.app;
    const acme = await app.tenants.add("acme");
    await app.domains.add("acme.test", { tenant: acme.id });
    await app.domains.verify("acme.test", true);
    for (const [email, tenant] of [["ann@acme.test", acme.id], ["boss@example.com", null]] as const) {
      await app.team.users.add(null, { email, role: "analyst", tenant, password: "correct horse battery" });
    }
    await app.sender.send({ ...principal, tenant: acme.id }, { domain: "acme.test", source: "cli", from: { email: "a@acme.test" },
      envelopes: [{ to: [{ email: "r3@dest.test" }], subject: "s", text: "x" }] });
    const accepted = async (email: string) =>
      sum((await (await (await env.signInWith({ email, password: "correct horse battery" })).call("GET", "/stats")).json()).series.accepted);
    expect(await accepted("ann@acme.test")).toBe(1);
    expect(await accepted("boss@example.com")).toBe(3);
  });
});
