// The test POST SparkPost makes when a webhook is created or validated: `[{"msys":{}}]` (or the
// caller's message) to the target with the webhook's auth and custom headers; non-2xx refuses.
// Targets (and OAuth token URLs) that are, or resolve to, loopback/private/link-local addresses are
// refused unless webhooks.allow_private is on: the one egress guard of events/egress.ts decides.
import { randomUUID } from "node:crypto";
import type { Resolver } from "../../dns.ts";
import { checkEgress, guardedFetch } from "../../events/egress.ts";
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

export interface EgressPolicy { allowPrivate: boolean; resolver: Resolver }

/** Refuses a target that is not http(s) or (unless allowed) is or resolves to a private address. */
export async function checkTarget(target: string, policy: EgressPolicy): Promise<void> {
  let url: URL;
  try { url = new URL(target); } catch { throw spError(422, "1300", "invalid data format/type", `target '${target}' is not a valid URL`); }
  if (!/^https?:$/.test(url.protocol)) throw spError(422, "1300", "invalid data format/type", "target must be an http or https URL");
  const refused = await checkEgress(target, policy);
  if (refused) throw spError(400, "1300", "invalid data format/type", `target refused: ${refused} (webhooks.allow_private is off)`);
}

async function readResponse(res: Response): Promise<PingResponse> {
  const text = await res.text().catch(() => "");
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { headers[k] = v; });
  return { status: res.status, headers, body: text.slice(0, MAX_BODY_CHARS) };
}

/** OAuth2: fetch a token from auth_request_details (form-encoded client credentials). */
async function fetchToken(auth: WebhookAuth, policy: EgressPolicy): Promise<string> {
  const details = auth.auth_request_details ?? {};
  const form = new URLSearchParams(Object.entries(details.body ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await guardedFetch(details.url ?? "", { method: "POST", body: form }, { ...policy, timeoutMs: PING_TIMEOUT_MS });
  const answer = await readResponse(res);
  const token = res.ok ? (JSON.parse(answer.body || "{}") as { access_token?: unknown }).access_token : undefined;
  if (typeof token !== "string") throw pingFailed(answer);
  return token;
}

async function authHeaders(auth: WebhookAuth, policy: EgressPolicy): Promise<Record<string, string>> {
  const creds = auth.auth_credentials ?? {};
  if (auth.auth_type === "basic") return { authorization: `Basic ${Buffer.from(`${creds.username ?? ""}:${creds.password ?? ""}`).toString("base64")}` };
  if (auth.auth_type === "oauth2") return { authorization: `Bearer ${await fetchToken(auth, policy)}` };
  return auth.auth_token ? { "x-messagesystems-webhook-token": auth.auth_token } : {};
}

/** SparkPost's webhook-create failure: 400 with a numeric code and the target's answer. */
export const pingFailed = (response: PingResponse) =>
  new SparkpostError(400, [{ code: 400, message: "POST to webhook tokens URL failed", response }]);

/** POSTs `message` to `target` as SparkPost would; returns the answer, or throws SparkPost's 400. */
export async function pingTarget(target: string, auth: WebhookAuth, policy: EgressPolicy, message: unknown = PING_MESSAGE): Promise<PingResponse> {
  let answer: PingResponse;
  try {
    const res = await guardedFetch(target, {
      method: "POST", body: JSON.stringify(message),
      headers: { ...(auth.custom_headers ?? {}), ...(await authHeaders(auth, policy)), "content-type": "application/json",
        "user-agent": "postern-webhook", "x-messagesystems-batch-id": randomUUID() },
    }, { ...policy, timeoutMs: PING_TIMEOUT_MS });
    answer = await readResponse(res);
  } catch (err) {
    if (err instanceof SparkpostError) throw err;
    answer = { status: 502, headers: {}, body: (err as Error)?.message ?? String(err) };
  }
  if (answer.status < 200 || answer.status >= 300) throw pingFailed(answer);
  return answer;
}
