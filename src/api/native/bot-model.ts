// Wire shapes of the native bot-detection API and their checks: batch mode (up to 500 events,
// each with ip, uas and event_id) and single-interaction mode (one event, ip or uas enough).
import { invalid, type Issue } from "../../core/errors.ts";
import { AppError } from "../../core/errors.ts";
import type { BotEvent } from "../../tracking/bot-api.ts";

export type { BotEvent };

export const MAX_BATCH_EVENTS = 500;

export interface BotRequest {
  events: BotEvent[];
  webhook_url?: string;
  /** Single-interaction mode: set by `mode: "single"`, or implied by one event without event_id. */
  isSingle: boolean;
}

const isText = (v: unknown, max = 2048) => typeof v === "string" && v.length <= max;

function checkEvent(e: unknown, i: number, isSingle: boolean, issues: Issue[]) {
  if (!e || typeof e !== "object" || Array.isArray(e)) return void issues.push({ field: `events.${i}`, message: "must be an object" });
  const ev = e as BotEvent;
  if (isSingle) {
    if (!isText(ev.ip) && !isText(ev.uas)) issues.push({ field: `events.${i}`, message: "ip or uas is required" });
  } else {
    for (const k of ["ip", "uas", "event_id"] as const) if (!isText(ev[k])) issues.push({ field: `events.${i}.${k}`, message: `${k} is required` });
  }
  if (ev.action !== undefined && ev.action !== "open" && ev.action !== "click") issues.push({ field: `events.${i}.action`, message: "action must be open or click" });
  for (const k of ["ts", "message_ts"] as const) if (ev[k] !== undefined && !Number.isInteger(ev[k])) issues.push({ field: `events.${i}.${k}`, message: `${k} must be a Unix time in seconds` });
  for (const k of ["domain", "recipient_id", "message_id"] as const) if (ev[k] !== undefined && !isText(ev[k], 512)) issues.push({ field: `events.${i}.${k}`, message: `${k} must be a string` });
}

/** Checks a request body; throws 400 with every problem. */
export function parseBotRequest(body: unknown): BotRequest {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("the body must be a JSON object with events and webhook_url");
  const b = body as { events?: unknown; webhook_url?: unknown; mode?: unknown };
  if (!Array.isArray(b.events) || b.events.length === 0) throw invalid("events must be a non-empty array", "events");
  if (b.events.length > MAX_BATCH_EVENTS) throw invalid(`at most ${MAX_BATCH_EVENTS} events per request`, "events");
  if (b.webhook_url !== undefined && (typeof b.webhook_url !== "string" || !/^https?:\/\/\S+$/.test(b.webhook_url))) throw invalid("webhook_url must be an http(s) URL", "webhook_url");
  const first = b.events[0] as BotEvent | undefined;
  const isSingle = b.mode === "single" || (b.events.length === 1 && !!first && typeof first === "object" && !first.event_id);
  const issues: Issue[] = [];
  b.events.forEach((e, i) => checkEvent(e, i, isSingle, issues));
  if (!isSingle && b.webhook_url === undefined) issues.push({ field: "webhook_url", message: "webhook_url is required in batch mode" });
  if (issues.length) throw new AppError("invalid", issues.map((x) => `${x.field}: ${x.message}`).join("; "), { issues });
  return { events: b.events as BotEvent[], webhook_url: b.webhook_url as string | undefined, isSingle };
}
