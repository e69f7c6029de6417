// Console Health (src/api/console/health.ts) on a real postern whose DNS is a real dnsmasq: the
// doctor's checks and the blocklist history for account keys; a domain key sees none of it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createSystemResolver } from "../../../src/dns.ts";
import { startConsole, type ConsoleEnv } from "./setup.ts";
import { dkimKeysFor, startWorld } from "../../doctor/fixture.ts";
import { freePort } from "../../helpers/free-port.ts";

setDefaultTimeout(60_000);
let world: Awaited<ReturnType<typeof startWorld>>;
let env: ConsoleEnv;
beforeAll(async () => {
  world = await startWorld(await dkimKeysFor("s1"));
  env = await startConsole({ resolver: createSystemResolver([world.dns.server], { timeoutMs: 1000 }),
    toml: `[mta.egress.ip6]\nsource_address = "127.0.0.6"\nehlo = "mx6.good.test"\n[mta.pools.default]\nsources = ["ip6"]\n`
      + `[doctor]\ninterval = "0"\nport25_probe = "127.0.0.1:${await freePort()}"\n[blocklists]\nip_zones = ["bl.test"]\ndomain_zones = []\n` });
});
afterAll(async () => { await env.close(); await world.stop(); });

test("Health: the checks (run at the first look), the blocklists, a refresh; account keys only", async () => {
  const account = await env.signIn(env.t.accountKey);
  const r = await (await account.call("GET", "/health")).json();
  expect(r.checks.find((c: any) => c.id === "port25")).toMatchObject({ severity: "error" });
  expect(r.checks.find((c: any) => c.id === "ptr" && c.subject === "127.0.0.6")).toMatchObject({ severity: "error" });
  expect(r.blocklists).toEqual([expect.objectContaining({ subject: "127.0.0.6", zone: "bl.test", state: "listed" })]);
  const again = await (await account.call("GET", "/health")).json();
  expect(again.at).toBe(r.at);
  await Bun.sleep(5);
  expect((await (await account.call("GET", "/health?refresh=1")).json()).at).not.toBe(r.at);
  const domain = await env.signIn(env.t.domainKey);
  expect((await domain.call("GET", "/health")).status).toBe(403);
});

test("Health names every tenant's domains: a user of one tenant, and a tenant's key, are refused", async () => {
  const acme = await env.t.app.tenants.add("acme");
  await env.t.app.domains.add("acme.test", { tenant: acme.id });
  await env.t.app.team.users.add(null, { email: "ann@acme.test", role: "owner", tenant: acme.id, password: "correct horse battery" });
  const ann = await env.signInWith({ email: "ann@acme.test", password: "correct horse battery" });
  expect((await ann.call("GET", "/health")).status).toBe(403);
  const acmeKey = await env.signIn((await env.t.app.access.createKey({ kind: "account", tenant: acme.id })).key);
  expect((await acmeKey.call("GET", "/health")).status).toBe(403);
});
