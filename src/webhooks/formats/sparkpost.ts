// SparkPost's webhook format: batches of `{"msys":{...}}` events, header X-MessageSystems-Batch-ID,
// and the target's own auth (basic, oauth2 client credentials, a token header, custom headers),
// used alike by deliveries and by the create/validate ping.
import { randomUUID } from "node:crypto";
import type { MessageEvent } from "../../core/model.ts";
import type { WebhookTarget } from "../../core/store-port.ts";
import type { EventContext } from "../context.ts";
import type { FormatContext, WebhookFormat } from "../format.ts";
import { sparkpostEvent, sparkpostType } from "./sparkpost-event.ts";
import { sampleBatch } from "./sparkpost-samples.ts";

export interface SparkpostAuth {
  auth_type?: string;
  auth_credentials?: { username?: unknown; password?: unknown };
  auth_request_details?: { url?: string; body?: Record<string, unknown> };
  auth_token?: string;
  custom_headers?: Record<string, string>;
}

/** The headers a target's auth settings ask for (an OAuth token fetched, or taken from the cache). */
async function authHeaders(auth: SparkpostAuth, ctx: FormatContext): Promise<Record<string, string>> {
  const headers: Record<string, string> = { ...(auth.custom_headers ?? {}) };
  const c = auth.auth_credentials ?? {};
  if (auth.auth_type === "basic") headers.Authorization = `Basic ${Buffer.from(`${c.username ?? ""}:${c.password ?? ""}`).toString("base64")}`;
  if (auth.auth_type === "oauth2") {
    const details = auth.auth_request_details ?? {};
    headers.Authorization = `Bearer ${await ctx.oauthToken({ url: details.url ?? "", body: details.body })}`;
  }
  if (auth.auth_token) headers["X-MessageSystems-Webhook-Token"] = auth.auth_token;
  return headers;
}

async function post(url: string, body: string, auth: SparkpostAuth, ctx: FormatContext) {
  return { body, headers: { ...(await authHeaders(auth, ctx)), "X-MessageSystems-Batch-ID": randomUUID() } };
}

/**
 * SparkPost's exact types (extra.events) decide when present: the native names the surface also
 * stores are coarser (bounce and out_of_band are both "failed"). `events` may hold either kind.
 */
function subscribes(target: WebhookTarget, event: MessageEvent): boolean {
  const type = sparkpostType(event).type;
  const exact = target.extra.events;
  if (Array.isArray(exact) && exact.length) return exact.includes(type);
  return target.events.length === 0 || target.events.includes(type) || target.events.includes(event.type);
}

export const PING_MESSAGE = [{ msys: {} }];

export const sparkpost: WebhookFormat = {
  name: "sparkpost",
  batchSize: 100,
  callbackSources: ["sparkpost"],
  subscribes,
  request: (batch, ctx) => post("", JSON.stringify((batch as EventContext[]).map(sparkpostEvent)), (ctx.target?.extra ?? {}) as SparkpostAuth, ctx),
  isFinal: () => false,
  sample: (type) => sampleBatch(type ? type.split(",") : undefined),
  async ping(url, ctx, message = PING_MESSAGE) {
    const { body, headers } = await post(url, JSON.stringify(message), (ctx.target?.extra ?? {}) as SparkpostAuth, ctx);
    return ctx.send(url, { body, headers: { ...headers, "content-type": "application/json", "user-agent": "postern-webhook" } });
  },
};
