// OAuth 2.0 client-credentials tokens for SparkPost-format webhook targets (RFC 6749 §4.4),
// cached until shortly before they expire.
const cache = new Map<string, { token: string; until: number }>();
const EARLY_REFRESH_MS = 30_000;

export async function fetchOauthToken(details: { url: string; body?: Record<string, string> }, opts: { timeoutMs: number; now: number }): Promise<string> {
  const key = `${details.url}|${details.body?.client_id ?? ""}`;
  const hit = cache.get(key);
  if (hit && hit.until > opts.now) return hit.token;
  const form = new URLSearchParams({ grant_type: "client_credentials", ...(details.body ?? {}) });
  const res = await fetch(details.url, { method: "POST", body: form, signal: AbortSignal.timeout(opts.timeoutMs) });
  if (!res.ok) throw new Error(`OAuth token request answered HTTP ${res.status}`);
  const body = (await res.json()) as { access_token?: string; expires_in?: number };
  if (!body.access_token) throw new Error("OAuth token response has no access_token");
  cache.set(key, { token: body.access_token, until: opts.now + (body.expires_in ?? 3600) * 1000 - EARLY_REFRESH_MS });
  return body.access_token;
}
