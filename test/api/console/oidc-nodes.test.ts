// Two nodes on one PostgreSQL store, no sticky sessions: a single sign-on started on node A has
// its callback taken by node B (the flow waits in the store, not in A's memory), and B's session
// works on A too. For a user with TOTP, the code step B leaves waiting is finished on A. The
// provider is npm's oidc-provider, started here; the browser is plain fetch with cookies.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { browseProvider, startOidcProvider, type OidcProviderHandle } from "../../helpers/oidc-provider.ts";
import { freePort } from "../../helpers/free-port.ts";
import { totp } from "../../../src/core/team/totp.ts";

setDefaultTimeout(120_000);
const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
let idp: OidcProviderHandle;
let a: TestApp;
let b: TestApp;
let baseA = "";
let baseB = "";
let secret = "";

beforeAll(async () => {
  if (!pg) return;
  const url = await pg.createDatabase("oidc_nodes");
  const [portA, portB] = [await freePort(), await freePort()];
  [baseA, baseB] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
  // One public URL for both nodes (a load balancer's, here B's): the redirect URI registered at the provider.
  idp = await startOidcProvider(`${baseB}/ui/oidc/callback`);
  idp.accounts.set("amy-sub", { email: "amy@example.com", email_verified: true });
  idp.accounts.set("tia-sub", { email: "tia@example.com", email_verified: true });
  const node = (id: string, port: number) => makeTestApp({ listen: `127.0.0.1:${port}`, publicUrl: baseB, serverToml: `node_id = "${id}"`,
    toml: `[storage]\nengine = "postgres"\npostgres_url = "${url}"\n[console.oidc]\nissuer = "${idp.issuer}"\nclient_id = "${idp.clientId}"\nclient_secret = "${idp.clientSecret}"\n` });
  a = await node("node-a", portA);
  b = await node("node-b", portB);
  await a.app.start();
  await b.app.start();
  await a.app.team.users.add(null, { email: "amy@example.com", role: "developer" });
  const tia = await a.app.team.users.add(null, { email: "tia@example.com", role: "analyst" });
  secret = (await a.app.team.enrolment.start(tia.id)).secret;
  await a.app.team.enrolment.confirm(tia.id, totp(secret, Date.now()));
});
afterAll(async () => { await a?.close(); await b?.close(); await idp?.close(); await pg?.stop(); }, 60_000);

const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1) ?? "";

/** Starts on node A, signs in at the provider as `login`, and brings the callback to node B: B's answer. */
async function startOnAFinishOnB(login: string): Promise<Response> {
  const start = await fetch(`${baseA}/ui/oidc/start`, { redirect: "manual" });
  expect(start.status).toBe(302);
  const state = cookieOf(start, "postern_oidc");
  const back = await browseProvider(start.headers.get("location")!, login, `${baseB}/ui/oidc/callback`);
  return fetch(back.href, { redirect: "manual", headers: { cookie: state } });
}

test.skipIf(pgSkipReason !== null)("a sign-in started on node A finishes on node B, and the session serves on both", async () => {
  const res = await startOnAFinishOnB("amy-sub");
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/ui#/domains");
  const session = cookieOf(res, "postern_session");
  for (const base of [baseA, baseB]) {
    const who = await (await fetch(`${base}/ui/api/session`, { headers: { cookie: session } })).json() as { signedIn: boolean; role: string };
    expect(who).toMatchObject({ signedIn: true, role: "developer" });
  }
  // The flow was used once: replaying the callback on A is refused.
  expect((await fetch(`${baseA}/ui/oidc/callback?state=x`, { redirect: "manual" })).status).toBe(401);
  expect(await a.app.store.control.countPendingSignIns({})).toBe(0);
});

test.skipIf(pgSkipReason !== null)("a user with TOTP: B's callback leaves the code step waiting, A finishes it", async () => {
  const res = await startOnAFinishOnB("tia-sub");
  expect(res.headers.get("location")).toBe("/ui#/sso-code");
  const pending = cookieOf(res, "postern_signin");
  expect(pending).not.toBe("");
  expect(cookieOf(res, "postern_session")).toBe("");
  const post = (code: string) => fetch(`${baseA}/ui/api/session`, { method: "POST", headers: { cookie: pending, "content-type": "application/json" },
    body: JSON.stringify({ code }) });
  const wrong = await post("000000");
  expect(wrong.status).toBe(401);
  expect(((await wrong.json()) as { message: string }).message).toBe("wrong code");
  const ok = await post(totp(secret, Date.now() + 30_000));
  expect(ok.status).toBe(200);
  expect(await ok.json()).toMatchObject({ signedIn: true, role: "analyst" });
  expect((await post(totp(secret, Date.now() + 30_000))).status).toBe(401);
});
