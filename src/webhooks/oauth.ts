// OAuth 2.0 client-credentials tokens (RFC 6749 §4.4) for webhook targets, cached until shortly
// before they expire. The cache key is the target plus a hash of the token URL and every
// credential sent: two targets (of two domains) never share a token, even with one client id.
import { createHash } from "node:crypto";
import type { PinnedResponse } from "../net/pinned-request.ts";

const EARLY_REFRESH_MS = 30_000;
const MAX_CACHED_TOKENS = 1_000;

/** A token request that failed; `response` is the token endpoint's answer when there was one. */
export class OAuthError extends Error {
  constructor(message: string, readonly response?: PinnedResponse) { super(message); }
}

export interface TokenRequest { url: string; body?: Record<string, unknown> }

export function createTokenCache(deps: { send: (url: string, body: string) => Promise<PinnedResponse> }) {
  const cache = new Map<string, { token: string; until: number }>();
  return {
    /** A token for `owner` (the target's id, or its URL when it has none). */
    async get(owner: string, details: TokenRequest, now: number): Promise<string> {
      // The body goes as the target configured it (SparkPost's auth_request_details.body).
      const form = new URLSearchParams(Object.entries(details.body ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
      const key = createHash("sha256").update(JSON.stringify([owner, details.url, [...form.entries()].sort()])).digest("hex");
      const hit = cache.get(key);
      if (hit && hit.until > now) return hit.token;
      const res = await deps.send(details.url, form.toString());
      if (!res.ok) throw new OAuthError(`OAuth token request answered HTTP ${res.status}`, res);
      let token: unknown;
      let expiresIn: unknown;
      try { ({ access_token: token, expires_in: expiresIn } = JSON.parse(res.body) as Record<string, unknown>); } catch { /* not JSON */ }
      if (typeof token !== "string" || !token) throw new OAuthError("OAuth token response has no access_token", res);
      if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value!);
      cache.set(key, { token, until: now + (typeof expiresIn === "number" ? expiresIn : 3600) * 1000 - EARLY_REFRESH_MS });
      return token;
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
