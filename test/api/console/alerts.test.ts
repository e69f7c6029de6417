// Console open alerts (src/api/console/alerts.ts) on a real postern: an account session lists the
// alerts that are firing (not the resolved ones); a domain session is refused.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: ConsoleEnv;
beforeAll(async () => { env = await startConsole(); });
afterAll(async () => { await env.close(); });

test("an account session lists the open alerts; a domain session is refused", async () => {
  const account = await env.signIn(env.t.accountKey);
  expect(await (await account.call("GET", "/alerts")).json()).toEqual({ alerts: [] });
  const at = Date.now();
  await env.t.app.alerts.observe({ rule: "blocklist", subject: "192.0.2.7", firing: true, at });
  await env.t.app.alerts.observe({ rule: "check", subject: "dmarc:example.com", firing: true, at });
  await env.t.app.alerts.observe({ rule: "check", subject: "dmarc:example.com", firing: false, at: at + 1000 });
  await env.t.app.alerts.observe({ rule: "check", subject: "dmarc:example.com", firing: false, at: at + 3_700_000 });
  const { alerts } = await (await account.call("GET", "/alerts")).json();
  expect(alerts.map((a: any) => [a.rule, a.state, a.subject, a.value, a.threshold])).toEqual([["blocklist", "firing", "192.0.2.7", 1, 0]]);
  expect(alerts[0].fired_at).toBe(new Date(at).toISOString());
  const domain = await env.signIn(env.t.domainKey);
  expect((await domain.call("GET", "/alerts")).status).toBe(403);
});

test("the open alerts are the installation's (they name every tenant's domains): a user of one tenant is refused", async () => {
  const acme = await env.t.app.tenants.add("acme");
  await env.t.app.team.users.add(null, { email: "ann@acme.test", role: "owner", tenant: acme.id, password: "correct horse battery" });
  const ann = await env.signInWith({ email: "ann@acme.test", password: "correct horse battery" });
  expect((await ann.call("GET", "/alerts")).status).toBe(403);
});
