// The test POST SparkPost makes when a webhook is created or validated: `[{"msys":{}}]` (or the
// caller's message) to the target with the webhook's auth and custom headers; non-2xx refuses.
// Literal loopback/private/link-local targets are refused unless webhooks.allow_private is on.
// TODO: a hostname resolving to a private address is only caught by events/' egress guard at
// delivery time; SurfaceDeps has no resolver (and no shared guard) to check it here.
import { randomUUID } from "node:crypto";
import { SparkpostError, spError } from "./errors.ts";

export const PING_TIMEOUT_MS = 10_000;
const MAX_BODY_CHARS = 4096;
export const PING_MESSAGE = [{ msys: {} }];

export interface WebhookAuth {
  auth_type?: string;
  auth_credentials?: Record<string, unknown>;
  auth_request_details?: { url?: string; body?: Record<string, unknown> };
  auth_token?: string;
  custom_headers?: Record<string, string>;
}

export interface PingResponse { status: number; headers: Record<string, string>; body: string }

const PRIVATE_V4 = [/^0\./, /^10\./, /^127\./, /^169\.254\./, /^172\.(1[6-9]|2\d|3[01])\./, /^192\.168\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./, /^2(2[4-9]|[3-5]\d)\./];

/** True for literal loopback, private, link-local, CGNAT and multicast addresses and localhost names. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return PRIVATE_V4.some((r) => r.test(host));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return isPrivateHost(mapped[1]!);
  return host === "::" || host === "::1" || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host) || /^ff/.test(host);
}

/** Refuses a target that is not http(s) or (unless allowed) points at a private address. */
export function checkTarget(target: string, allowPrivate: boolean): void {
  let url: URL;
  try { url = new URL(target); } catch { throw spError(422, "1300", "invalid data format/type", `target '${target}' is not a valid URL`); }
  if (!/^https?:$/.test(url.protocol)) throw spError(422, "1300", "invalid data format/type", "target must be an http or https URL");
  if (!allowPrivate && isPrivateHost(url.hostname)) {
    throw spError(400, "1300", "invalid data format/type", "target is a private, loopback or link-local address (webhooks.allow_private is off)");
  }
}

async function readResponse(res: Response): Promise<PingResponse> {
  const text = await res.text().catch(() => "");
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { headers[k] = v; });
  return { status: res.status, headers, body: text.slice(0, MAX_BODY_CHARS) };
}

/** OAuth2: fetch a token from auth_request_details (form-encoded client credentials). */
async function fetchToken(auth: WebhookAuth): Promise<string> {
  const details = auth.auth_request_details ?? {};
  const form = new URLSearchParams(Object.entries(details.body ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await fetch(details.url ?? "", { method: "POST", body: form, redirect: "manual", signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
  const answer = await readResponse(res);
  const token = res.ok ? (JSON.parse(answer.body || "{}") as { access_token?: unknown }).access_token : undefined;
  if (typeof token !== "string") throw pingFailed(answer);
  return token;
}

async function authHeaders(auth: WebhookAuth): Promise<Record<string, string>> {
  const creds = auth.auth_credentials ?? {};
  if (auth.auth_type === "basic") return { authorization: `Basic ${Buffer.from(`${creds.username ?? ""}:${creds.password ?? ""}`).toString("base64")}` };
  if (auth.auth_type === "oauth2") return { authorization: `Bearer ${await fetchToken(auth)}` };
  return auth.auth_token ? { "x-messagesystems-webhook-token": auth.auth_token } : {};
}

/** SparkPost's webhook-create failure: 400 with a numeric code and the target's answer. */
export const pingFailed = (response: PingResponse) =>
  new SparkpostError(400, [{ code: 400, message: "POST to webhook tokens URL failed", response }]);

/** POSTs `message` to `target` as SparkPost would; returns the answer, or throws SparkPost's 400. */
export async function pingTarget(target: string, auth: WebhookAuth, message: unknown = PING_MESSAGE): Promise<PingResponse> {
  let answer: PingResponse;
  try {
    const res = await fetch(target, {
      method: "POST", redirect: "manual", signal: AbortSignal.timeout(PING_TIMEOUT_MS), body: JSON.stringify(message),
      headers: { ...(auth.custom_headers ?? {}), ...(await authHeaders(auth)), "content-type": "application/json",
        "user-agent": "postern-webhook", "x-messagesystems-batch-id": randomUUID() },
    });
    answer = await readResponse(res);
  } catch (err) {
    if (err instanceof SparkpostError) throw err;
    answer = { status: 502, headers: {}, body: (err as Error)?.message ?? String(err) };
  }
  if (answer.status < 200 || answer.status >= 300) throw pingFailed(answer);
  return answer;
}
