// SparkPost webhook objects ⇄ postern WebhookTargets (format "sparkpost"): SparkPost event types
// map to postern's event names for routing; SparkPost's own fields (name, the exact event list,
// auth, custom headers, active) travel in `extra` for the events engineer's batch delivery.
import type { SurfaceDeps } from "../deps.ts";
import { badFormat, missingField } from "./errors.ts";
import type { WebhookAuth } from "./webhook-ping.ts";
import { isObject } from "../wire.ts";

export type WebhookTarget = Awaited<ReturnType<SurfaceDeps["webhooks"]["list"]>>[number];

/** SparkPost event type → the postern event that produces it; null: valid, but postern never emits it. */
export const EVENT_MAP: Record<string, string | null> = {
  injection: "accepted", delivery: "delivered", bounce: "failed", out_of_band: "failed", delay: "deferred",
  policy_rejection: "rejected", spam_complaint: "complained", open: "opened", initial_open: "opened", amp_open: "opened",
  amp_initial_open: "opened", click: "clicked", amp_click: "clicked", generation_failure: "rejected", generation_rejection: "failed",
  list_unsubscribe: "unsubscribed", link_unsubscribe: "unsubscribed", sms_status: null, relay_injection: null, relay_rejection: null,
  relay_delivery: null, relay_tempfail: null, relay_permfail: null, ab_test_completed: null, ab_test_cancelled: null,
  success: null, error: null,
};

const AUTH_TYPES = new Set(["none", "basic", "oauth2"]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface WebhookExtra extends WebhookAuth {
  name: string;
  events: string[];
  active: boolean;
}


function readEvents(v: unknown): { events: string[]; native: string[] } {
  if (!Array.isArray(v) || !v.length || !v.every((e) => typeof e === "string")) throw missingField("events is required (a non-empty array of event types)");
  const unknown = v.find((e) => !(e in EVENT_MAP));
  if (unknown) throw badFormat(`unknown event type '${unknown}'`);
  const native = [...new Set(v.map((e) => EVENT_MAP[e]).filter((e): e is string => Boolean(e)))];
  // An empty native list would mean "every event" to the store; refuse instead.
  if (!native.length) throw badFormat(`postern never emits ${v.join(", ")}`);
  return { events: [...new Set(v as string[])], native };
}

function readAuth(body: Record<string, unknown>, base: Partial<WebhookExtra>): WebhookAuth {
  const authType = body.auth_type ?? base.auth_type ?? "none";
  if (typeof authType !== "string" || !AUTH_TYPES.has(authType)) throw badFormat("auth_type must be none, basic or oauth2");
  const headers = body.custom_headers ?? base.custom_headers ?? {};
  if (!isObject(headers)) throw badFormat("custom_headers must be an object");
  for (const [k, val] of Object.entries(headers)) {
    if (!HEADER_NAME.test(k) || typeof val !== "string" || /[\r\n]/.test(val)) throw badFormat(`custom_headers.${k} must be a valid header`);
  }
  const creds = body.auth_credentials ?? base.auth_credentials;
  const details = body.auth_request_details ?? base.auth_request_details;
  if (creds !== undefined && !isObject(creds)) throw badFormat("auth_credentials must be an object");
  if (details !== undefined && !isObject(details)) throw badFormat("auth_request_details must be an object");
  if (authType === "oauth2" && typeof (details as { url?: unknown } | undefined)?.url !== "string") throw missingField("auth_request_details.url is required for oauth2");
  const token = body.auth_token ?? base.auth_token;
  if (token !== undefined && (typeof token !== "string" || /[\r\n]/.test(token))) throw badFormat("auth_token must be a string");
  return { auth_type: authType, custom_headers: headers as Record<string, string>,
    ...(creds ? { auth_credentials: creds as Record<string, unknown> } : {}), ...(details ? { auth_request_details: details as WebhookAuth["auth_request_details"] } : {}),
    ...(token ? { auth_token: token as string } : {}) };
}

/** A create (no `base`) or update (`base` = stored) body → target URL, native events and extra. */
export function readWebhook(body: unknown, base?: { url: string; extra: WebhookExtra }) {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  const name = body.name ?? base?.extra.name;
  const target = body.target ?? base?.url;
  if (typeof name !== "string" || !name) throw missingField("name is required");
  if (typeof target !== "string" || !target) throw missingField("target is required");
  const { events, native } = readEvents(body.events ?? base?.extra.events);
  const active = body.active ?? base?.extra.active ?? true;
  if (typeof active !== "boolean") throw badFormat("active must be a boolean");
  const extra: WebhookExtra = { name, events, active, ...readAuth(body, base?.extra ?? {}) };
  return { url: target, native, extra };
}

const links = (id: string) => [
  { href: `/api/v1/webhooks/${id}/validate`, rel: "urn.msys.webhooks.validate", method: ["POST"] },
  { href: `/api/v1/webhooks/${id}/batch-status`, rel: "urn.msys.webhooks.batches", method: ["GET"] },
];

/** The SparkPost webhook object of a stored target (list form; GET drops `id`). */
export function toWire(t: WebhookTarget) {
  const x = t.extra as Partial<WebhookExtra>;
  return {
    id: t.id, name: x.name ?? "", target: t.url, events: x.events ?? [], active: x.active ?? true, auth_type: x.auth_type ?? "none",
    auth_request_details: x.auth_request_details ?? {}, auth_credentials: x.auth_credentials ?? {}, auth_token: x.auth_token ?? "",
    custom_headers: x.custom_headers ?? {}, links: links(t.id),
  };
}

export const createdLinks = (id: string) => [{ href: `/api/v1/webhooks/${id}`, rel: "urn.msys.webhooks.webhook", method: ["GET", "PUT"] }];
export const updatedLinks = (id: string) => [links(id)[0]!];
