// OAuth 2.0 client-credentials tokens for SparkPost-format webhook targets (RFC 6749 §4.4),
// cached until shortly before they expire.
import { guardedFetch, type GuardedFetchOptions } from "./egress.ts";

const EARLY_REFRESH_MS = 30_000;
const MAX_CACHED_TOKENS = 1_000;

/** Tokens by token URL and client id; owned by the webhook delivery that uses it. */
export type TokenCache = Map<string, { token: string; until: number }>;

export async function fetchOauthToken(details: { url: string; body?: Record<string, string> }, opts: GuardedFetchOptions & { now: number; cache: TokenCache }): Promise<string> {
  const key = `${details.url}|${details.body?.client_id ?? ""}`;
  const cache = opts.cache;
  const hit = cache.get(key);
  if (hit && hit.until > opts.now) return hit.token;
  const form = new URLSearchParams({ grant_type: "client_credentials", ...(details.body ?? {}) });
  const res = await guardedFetch(details.url, { method: "POST", body: form }, opts);
  if (!res.ok) throw new Error(`OAuth token request answered HTTP ${res.status}`);
  const body = (await res.json()) as { access_token?: string; expires_in?: number };
  if (!body.access_token) throw new Error("OAuth token response has no access_token");
  if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value!);
  cache.set(key, { token: body.access_token, until: opts.now + (body.expires_in ?? 3600) * 1000 - EARLY_REFRESH_MS });
  return body.access_token;
}
