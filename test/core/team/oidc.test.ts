// The OpenID Connect client against a real provider (npm's oidc-provider, started here), driven by
// plain fetch with a small cookie jar instead of a browser: the whole code flow with PKCE yields the
// verified claims (email from UserInfo); a callback with another browser's state, a replayed state,
// a provider's error answer and a discovery document naming another issuer are refused. A flow
// waits in a real store: used once, expired after 10 minutes, and capped per client address.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOidcClient } from "../../../src/core/team/oidc.ts";
import { createPendingSignIns, MAX_PER_CLIENT, PENDING_TTL_MS } from "../../../src/core/team/pending-signins.ts";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import type { Store } from "../../../src/core/store-port.ts";
import { browseProvider, startOidcProvider, type OidcProviderHandle } from "../../helpers/oidc-provider.ts";

const REDIRECT = "http://127.0.0.1:1/ui/oidc/callback";
let idp: OidcProviderHandle;
let store: Store;
let skew = 0;
const now = () => Date.now() + skew;
beforeAll(async () => {
  idp = await startOidcProvider(REDIRECT);
  idp.accounts.set("amy", { email: "amy@example.com", email_verified: true });
  store = await openSqliteStore(":memory:", ["us"]);
});
afterAll(async () => { await idp.close(); await store.close(); });

const client = (issuer = idp.issuer) => createOidcClient({ issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, redirectUri: REDIRECT },
  { now, pending: createPendingSignIns(store.control, now) });

test("the code flow with PKCE gives the verified subject and email", async () => {
  const c = client();
  const { url, state } = await c.start("10.0.0.1");
  const auth = new URL(url);
  expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
  expect(auth.searchParams.get("scope")).toBe("openid email");
  const back = await browseProvider(url, "amy", REDIRECT);
  const claims = await c.finish(back.searchParams, state);
  expect(claims).toMatchObject({ iss: idp.issuer, sub: "amy", aud: idp.clientId, email: "amy@example.com", email_verified: true });
  // The flow is used up.
  await expect(c.finish(back.searchParams, state)).rejects.toThrow(/unknown or expired/);
});

test("another browser's state, a provider's error and a discovery document of another issuer are refused", async () => {
  const c = client();
  const { url, state } = await c.start("10.0.0.1");
  const back = await browseProvider(url, "amy", REDIRECT);
  await expect(c.finish(back.searchParams, "someone-else's-state")).rejects.toThrow(/unknown or expired/);
  const other = await c.start("10.0.0.1");
  await expect(c.finish(new URLSearchParams({ state: other.state, error: "access_denied", error_description: "the user said no" }), other.state))
    .rejects.toThrow(/the user said no/);
  expect(state).not.toBe(other.state);
  await expect(client(`${idp.issuer}/`).start("10.0.0.1")).rejects.toThrow(/calls itself/);
});

test("a flow expires after 10 minutes; one address may have only so many waiting, and expired ones make room", async () => {
  const c = client();
  const { url, state } = await c.start("10.0.0.2");
  const back = await browseProvider(url, "amy", REDIRECT);
  skew = PENDING_TTL_MS + 1;
  try {
    await expect(c.finish(back.searchParams, state)).rejects.toThrow(/unknown or expired/);
    for (let i = 0; i < MAX_PER_CLIENT; i++) await c.start("10.0.0.3");
    await expect(c.start("10.0.0.3")).rejects.toThrow(/too many sign-ins in progress from your address/);
    await c.start("10.0.0.4");
    expect(await store.control.countPendingSignIns({ client: "10.0.0.3" })).toBe(MAX_PER_CLIENT);
    skew += PENDING_TTL_MS;
    await c.start("10.0.0.3");
    expect(await store.control.countPendingSignIns({})).toBe(1);
  } finally { skew = 0; }
});
