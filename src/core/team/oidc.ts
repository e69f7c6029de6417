// OpenID Connect sign-in, the client side (contract §14): the authorization code flow with PKCE
// (S256), state and nonce, against a provider found by discovery; the id_token is verified with
// id-token.ts against the provider's JWKS. A flow waits in the store (pending-signins.ts: by its
// state, 10 minutes, once) between the redirect to the provider and the callback, so any node may
// take the callback; the browser holds the state in a cookie, so a callback from another browser
// does not match. Linking the subject to a user is oidc-link.ts's.
import { createHash, randomBytes } from "node:crypto";
import { checkIdToken, verifyJws, type IdClaims } from "./id-token.ts";
import { AppError, unauthenticated } from "../errors.ts";
import type { PendingSignIns } from "./pending-signins.ts";

export interface OidcSettings { issuer: string; clientId: string; clientSecret: string; redirectUri: string }

interface Discovery { issuer: string; authorization_endpoint: string; token_endpoint: string; jwks_uri: string; userinfo_endpoint?: string }
const b64url = (b: Buffer) => b.toString("base64url");

export function createOidcClient(settings: OidcSettings, deps: { now: () => number; pending: PendingSignIns; fetch?: typeof fetch }) {
  const get = deps.fetch ?? fetch;
  let discovery: Promise<Discovery> | null = null;
  let keys: { kid?: string; kty?: string }[] = [];

  async function json(res: Response, what: string): Promise<Record<string, unknown>> {
    const body = await res.json().catch(() => null) as Record<string, unknown> | null;
    if (!res.ok || !body) throw new AppError("unavailable", `the identity provider's ${what} answered ${res.status}${body?.error ? ` (${body.error})` : ""}`);
    return body;
  }

  function discover(): Promise<Discovery> {
    discovery ??= (async () => {
      const doc = await json(await get(`${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`), "discovery document") as unknown as Discovery;
      // OpenID Connect Discovery §4.3: the document's issuer is exactly the configured one.
      if (doc.issuer !== settings.issuer) throw new AppError("unavailable", `the provider calls itself ${doc.issuer}, not ${settings.issuer}`);
      return doc;
    })().catch((e) => { discovery = null; throw e; });
    return discovery;
  }

  /** The provider's keys; fetched again once when a token names a key not seen yet (rotation). */
  async function verified(idToken: string, refresh: boolean): Promise<Record<string, unknown>> {
    if (refresh || !keys.length) keys = ((await json(await get((await discover()).jwks_uri), "JWKS")).keys as typeof keys) ?? [];
    try { return verifyJws(idToken, keys as Parameters<typeof verifyJws>[1]); }
    catch (e) { if (!refresh) return verified(idToken, true); throw e; }
  }

  /**
   * Providers may leave the email scope's claims out of the id_token and serve them at UserInfo
   * (OIDC Core §5.4); its answer counts only for the same subject (§5.3.2).
   */
  async function withUserinfo(claims: IdClaims, d: Discovery, accessToken: unknown): Promise<IdClaims> {
    if (!d.userinfo_endpoint || typeof accessToken !== "string") return claims;
    const info = await json(await get(d.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } }), "UserInfo endpoint");
    if (info.sub !== claims.sub) throw unauthenticated("the provider's UserInfo answer is for another subject");
    return { ...claims, email: typeof info.email === "string" ? info.email : undefined, email_verified: info.email_verified === true };
  }

  return {
    /** Where to send the browser, and the state its cookie must carry back; `client` is its address (capped). */
    async start(client: string): Promise<{ url: string; state: string }> {
      const d = await discover();
      const flow = { nonce: b64url(randomBytes(24)), verifier: b64url(randomBytes(32)) };
      const state = await deps.pending.open("oidc", client, flow);
      const url = new URL(d.authorization_endpoint);
      const q = { response_type: "code", client_id: settings.clientId, redirect_uri: settings.redirectUri, scope: "openid email", state,
        nonce: flow.nonce, code_challenge: b64url(createHash("sha256").update(flow.verifier).digest()), code_challenge_method: "S256" };
      for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
      return { url: url.href, state };
    },

    /** The callback: the state must be the cookie's and waiting; the code is exchanged and the id_token checked. */
    async finish(query: URLSearchParams, cookieState: string | null): Promise<IdClaims> {
      const state = query.get("state") ?? "";
      const flow = state && state === cookieState ? await deps.pending.take(state, "oidc") : null;
      if (!flow) throw unauthenticated("this sign-in link is unknown or expired: start again");
      if (query.get("error")) throw unauthenticated(`the identity provider refused: ${query.get("error_description") ?? query.get("error")}`);
      const d = await discover();
      const form = new URLSearchParams({ grant_type: "authorization_code", code: query.get("code") ?? "", redirect_uri: settings.redirectUri,
        code_verifier: flow.verifier });
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
      // client_secret_basic (RFC 6749 §2.3.1: both parts form-encoded); a public client names itself in the form.
      if (settings.clientSecret) headers.authorization = `Basic ${btoa(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`)}`;
      else form.set("client_id", settings.clientId);
      const tokens = await json(await get(d.token_endpoint, { method: "POST", headers, body: form }), "token endpoint");
      if (typeof tokens.id_token !== "string") throw unauthenticated("the identity provider sent no id_token");
      const claims = checkIdToken(await verified(tokens.id_token, false), { issuer: settings.issuer, clientId: settings.clientId, nonce: flow.nonce, nowMs: deps.now() });
      return claims.email === undefined ? withUserinfo(claims, d, tokens.access_token) : claims;
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
