// Console queue (src/api/console/queue.ts) on a real postern: mail a sink keeps deferring waits by
// destination; Retry makes it due now, Purge fails it; another domain's key sees none of it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleClient, type ConsoleEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: ConsoleEnv;
let own: ConsoleClient;
const principal = { accountId: 1, keyId: "t", kind: "account" as const, domain: null, grants: [] };
beforeAll(async () => {
  env = await startConsole({ sink: { script: (rcpt) => (rcpt.endsWith("@slow.test") ? { code: 451, message: "4.7.1 try later" } : null) } });
  own = await env.signIn(env.t.domainKey);
  await env.t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: [{ to: [{ email: "one@slow.test" }, { email: "two@slow.test" }], subject: "s", text: "x" }] });
});
afterAll(async () => { await env.close(); });

async function waitQueue(pred: (q: any[]) => boolean) {
  const end = Date.now() + 20_000;
  for (;;) {
    const q = await (await own.call("GET", "/queue")).json();
    if (pred(q)) return q;
    if (Date.now() > end) throw new Error(`queue never matched: ${JSON.stringify(q)}`);
    await Bun.sleep(100);
  }
}

describe("console queue", () => {
  test("deferred mail waits under its destination with the last reply; another domain sees nothing", async () => {
    const q = await waitQueue((rows) => rows.some((r) => r.destination === "slow.test" && r.deferred === 2));
    expect(q.find((r: any) => r.destination === "slow.test").lastResponse).toContain("try later");
    const other = await env.signIn(env.otherKey);
    expect(await (await other.call("GET", "/queue")).json()).toEqual([]);
    expect(await (await other.call("POST", "/queue/purge", { destination: "slow.test" })).json()).toEqual({ purged: 0 });
  });

  test("a user of one tenant neither sees nor retries nor purges another tenant's waiting mail", async () => {
    const acme = await env.t.app.tenants.add("acme");
    await env.t.app.domains.add("acme.test", { tenant: acme.id });
    await env.t.app.team.users.add(null, { email: "dev@acme.test", role: "developer", tenant: acme.id, password: "correct horse battery" });
    const dev = await env.signInWith({ email: "dev@acme.test", password: "correct horse battery" });
    expect(await (await dev.call("GET", "/queue")).json()).toEqual([]);
    expect(await (await dev.call("GET", "/queue/destinations")).json()).toEqual([]);
    expect(await (await dev.call("POST", "/queue/retry", { destination: "slow.test" })).json()).toEqual({ retried: 0 });
    expect(await (await dev.call("POST", "/queue/purge", { destination: "slow.test" })).json()).toEqual({ purged: 0 });
    await waitQueue((rows) => rows.some((r) => r.destination === "slow.test" && r.deferred === 2));
  });

  test("destinations: the account sees each destination's state; a domain key sees none", async () => {
    const admin = await env.signIn(env.t.accountKey);
    const end = Date.now() + 20_000;
    let rows: any[] = [];
    while (Date.now() < end) {
      rows = await (await admin.call("GET", "/queue/destinations")).json();
      if (rows.some((d) => d.waiting === 2 && d.concurrency > 0)) break;
      await Bun.sleep(200);
    }
    const d = rows.find((r) => r.waiting === 2)!;
    expect(d).toMatchObject({ name: `127.0.0.1:${env.sink.port}`, provider: null, in_flight: 0, max_concurrency: 20, suspended_until: null });
    expect(Object.keys(d).sort()).toEqual(["concurrency", "in_flight", "last_throttle", "max_concurrency", "mx", "name", "provider", "suspended_until", "waiting"]);
    expect(await (await own.call("GET", "/queue/destinations")).json()).toEqual([]);
  });

  test("Retry makes the waiting recipients due now; Purge fails them and empties the destination", async () => {
    // The test config retries every second, so deferrals keep coming: count from just before the Retry.
    const deferrals = async () => (await env.t.app.activity.events("example.com", { types: ["deferred"], limit: 100 })).length;
    const before = await deferrals();
    // Both rows are waiting unless a (one-second) retry's attempt holds one at that moment: ask until some are.
    let retried = 0;
    const retryEnd = Date.now() + 20_000;
    while (retried === 0 && Date.now() < retryEnd) {
      retried = ((await (await own.call("POST", "/queue/retry", { destination: "SLOW.test" })).json()) as { retried: number }).retried;
      if (retried === 0) await Bun.sleep(100);
    }
    expect([1, 2]).toContain(retried);
    const until = Date.now() + 20_000;
    while ((await deferrals()) < before + 2 && Date.now() < until) await Bun.sleep(100);
    expect(await deferrals()).toBeGreaterThanOrEqual(before + 2);
    // Purge takes the waiting rows; one caught in a (one-second) retry's attempt is purged once it is back.
    let purged = 0;
    const purgeEnd = Date.now() + 20_000;
    while (purged < 2 && Date.now() < purgeEnd) {
      purged += ((await (await own.call("POST", "/queue/purge", { destination: "slow.test" })).json()) as { purged: number }).purged;
      if (purged < 2) await Bun.sleep(100);
    }
    expect(purged).toBe(2);
    await waitQueue((rows) => !rows.some((r) => r.destination === "slow.test"));
    const end = Date.now() + 20_000;
    while ((await env.t.app.activity.events("example.com", { types: ["failed"], limit: 10 })).length < 2 && Date.now() < end) await Bun.sleep(100);
    expect((await env.t.app.activity.events("example.com", { types: ["failed"], limit: 10 })).length).toBe(2);
  });

  test("a missing destination is a 400", async () => {
    expect((await own.call("POST", "/queue/retry", {})).status).toBe(400);
    expect((await own.call("POST", "/queue/purge", { destination: "" })).status).toBe(400);
  });
});
