// The test POST SparkPost makes when a webhook is created or validated: `[{"msys":{}}]` (or the
// caller's message) to the target with the webhook's auth and custom headers; non-2xx refuses.
// The request itself (auth, OAuth token, pinned egress that refuses private addresses unless
// webhooks.allow_private) is the SparkPost webhook format's (webhooks/formats/sparkpost.ts).
import type { WebhookTarget } from "../../core/store-port.ts";
import type { Outbound } from "../../webhooks/outbound.ts";
import { OAuthError } from "../../webhooks/oauth.ts";
import { FORMAT } from "../../webhooks/registry.ts";
import { SparkpostError, spError } from "./errors.ts";

const MAX_BODY_CHARS = 4096;

/** A SparkPost webhook's auth fields, as stored in the target's extra. */
export interface WebhookAuth {
  auth_type?: string;
  auth_credentials?: Record<string, unknown>;
  auth_request_details?: { url?: string; body?: Record<string, unknown> };
  auth_token?: string;
  custom_headers?: Record<string, string>;
}

export interface PingResponse { status: number; headers: Record<string, string>; body: string }

/** Refuses a target that is not http(s) or (unless allowed) is or resolves to a private address. */
export async function checkTarget(target: string, outbound: Outbound): Promise<void> {
  let url: URL;
  try { url = new URL(target); } catch { throw spError(422, "1300", "invalid data format/type", `target '${target}' is not a valid URL`); }
  if (!/^https?:$/.test(url.protocol)) throw spError(422, "1300", "invalid data format/type", "target must be an http or https URL");
  const refused = await outbound.check(target);
  if (refused) throw spError(400, "1300", "invalid data format/type", `target refused: ${refused} (webhooks.allow_private is off)`);
}

/** SparkPost's webhook-create failure: 400 with a numeric code and the target's answer. */
export const pingFailed = (response: PingResponse) =>
  new SparkpostError(400, [{ code: 400, message: "POST to webhook tokens URL failed", response }]);

const trimmed = (r: PingResponse): PingResponse => ({ status: r.status, headers: r.headers, body: r.body.slice(0, MAX_BODY_CHARS) });

/** POSTs `message` to the target as SparkPost would; returns the answer, or throws SparkPost's 400. */
export async function pingTarget(outbound: Outbound, target: Pick<WebhookTarget, "url" | "extra" | "domainId"> & { id?: string }, message?: unknown): Promise<PingResponse> {
  let answer: PingResponse;
  try {
    const full: WebhookTarget = { id: target.id ?? "", domainId: target.domainId, url: target.url, extra: target.extra, events: [], format: FORMAT.sparkpost, createdAt: 0 };
    answer = trimmed(await outbound.ping(FORMAT.sparkpost, { url: target.url, domain: "", target: full }, message));
  } catch (err) {
    if (err instanceof OAuthError && err.response) throw pingFailed(trimmed(err.response));
    answer = { status: 502, headers: {}, body: (err as Error)?.message ?? String(err) };
  }
  if (answer.status < 200 || answer.status >= 300) throw pingFailed(answer);
  return answer;
}
