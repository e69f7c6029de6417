// A real OpenID Connect provider for the single sign-on tests: npm's oidc-provider (certified by
// the OpenID Foundation) on 127.0.0.1 over http, with one confidential client whose redirect URI is
// the console's callback, PKCE required, and accounts whose email claims the test chooses. Its
// development login form takes any login name (the account id) and password; consent is granted
// for the client up front so the flow is: login form, then back to postern.
import Provider from "oidc-provider";
import { freePort } from "./free-port.ts";

export interface TestAccount { email?: string; email_verified?: boolean }

export interface OidcProviderHandle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name; a login not listed signs in with no email claim. */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<OidcProviderHandle> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, TestAccount>();
  const clientId = "postern-console";
  const clientSecret = "a-client-secret-long-enough-for-the-test-provider";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"],
      response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" }],
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      async claims() { return { sub: id, ...(accounts.get(id) ?? {}) }; },
    }),
    // The test's users have already agreed: grant the client its scopes without a consent page.
    async loadExistingGrant(ctx: any) {
      const existing = ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid email");
      grant.addOIDCClaims(["email", "email_verified"]);
      await grant.save();
      return grant;
    },
  });
  const server = provider.listen(port, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    issuer, clientId, clientSecret, accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Follows the provider's redirects and its login form as `login` (plain fetch, a cookie jar) until it sends the browser to `redirect`. */
export async function browseProvider(url: string, login: string, redirect: string, cookies: Map<string, string> = new Map()): Promise<URL> {
  const jar = cookies;
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let next: { url: string; init?: RequestInit } = { url };
  for (let i = 0; i < 20; i++) {
    const res = await fetch(next.url, { ...next.init, redirect: "manual", headers: { ...(next.init?.headers as object), cookie: cookie() } });
    for (const c of res.headers.getSetCookie()) { const [kv] = c.split(";"); const eq = kv!.indexOf("="); jar.set(kv!.slice(0, eq), kv!.slice(eq + 1)); }
    const location = res.headers.get("location");
    if (location) {
      const target = new URL(location, next.url);
      if (target.href.startsWith(redirect)) return target;
      next = { url: target.href };
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on ${next.url}: ${res.status}`);
    next = { url: new URL(action, next.url).href, init: { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login, password: "anything" }).toString() } };
  }
  throw new Error("too many redirects");
}
