// What an event is to the stats, reduced to the facts any surface's counts read (a neutral class):
// its type, whether a delivery or delay was a retry, a failure's kind (temporary, a drop by list,
// cancelled, or a bounce with its class, report list and whether it came in or out of band), and
// for opens and clicks the bot verdict and which "first" they were. Retention keeps counts per key
// (stat_rollups), so vendor stats read the same facts from live events and from what was rolled up.
import type { EventType, FailureReason, MessageEvent, SuppressingList } from "../model.ts";
import { eventBounceClass } from "../bounce/event-class.ts";
import { reportListFor } from "../suppression-policy.ts";

/**
 * Which first an open or click was, for its message and recipient, as recorded (firsts.ts):
 * `once` the first of its type, `human` the first of its type not by a bot, `engaged` the first open
 * or click, `human-engaged` the first open or click not by a bot.
 */
export type First = NonNullable<MessageEvent["firsts"]>[number];

export interface StatKey {
  type: EventType;
  /** A delivery or delay on a later attempt than the first. */
  retry?: boolean;
  /** A failure that is temporary (counted as a delay). */
  temporary?: boolean;
  reason?: FailureReason;
  suppressedBy?: SuppressingList;
  /** A bounce's class (core/bounce), and the report list it goes on (blocks, invalid). */
  bounceClass?: number;
  listed?: string;
  /** A bounce in band (a failed attempt) or out of band (a report received later). */
  band?: "in" | "out";
  bot?: boolean;
  /** Opens and clicks: absent on events recorded before firsts were (counted by the reader instead). */
  firsts?: First[];
}

function failureKey(e: MessageEvent): StatKey {
  const k: StatKey = { type: "failed" };
  if (e.reason) k.reason = e.reason;
  if (e.reason === "suppressed") k.suppressedBy = e.suppressedBy ?? "bounces";
  if (e.severity === "temporary") { k.temporary = true; return k; }
  if (e.reason === "cancelled" || e.reason === "suppressed") return k;
  k.bounceClass = eventBounceClass(e);
  const listed = reportListFor(e)?.type;
  if (listed) k.listed = listed;
  if (e.attempt !== undefined) k.band = "in"; else if (e.code !== undefined) k.band = "out";
  return k;
}

/** The event's stat key. */
export function statKeyOf(e: MessageEvent): StatKey {
  switch (e.type) {
    case "delivered": case "deferred": return (e.attempt ?? 1) > 1 ? { type: e.type, retry: true } : { type: e.type };
    case "failed": return failureKey(e);
    case "opened": case "clicked": return { type: e.type, ...(e.isBot ? { bot: true } : {}), ...(e.firsts ? { firsts: e.firsts } : {}) };
    default: return { type: e.type };
  }
}

/** The key as stored: its type, then each field set, in a fixed order (`failed;temporary`, `opened;firsts=once+engaged`). */
export function encodeStatKey(k: StatKey): string {
  const parts: string[] = [k.type];
  if (k.retry) parts.push("retry");
  if (k.temporary) parts.push("temporary");
  if (k.reason) parts.push(`reason=${k.reason}`);
  if (k.suppressedBy) parts.push(`by=${k.suppressedBy}`);
  if (k.bounceClass !== undefined) parts.push(`class=${k.bounceClass}`);
  if (k.listed) parts.push(`listed=${k.listed}`);
  if (k.band) parts.push(`band=${k.band}`);
  if (k.bot) parts.push("bot");
  if (k.firsts) parts.push(`firsts=${k.firsts.join("+")}`);
  return parts.join(";");
}

export function decodeStatKey(text: string): StatKey {
  const [type, ...parts] = text.split(";");
  const k: StatKey = { type: type as EventType };
  for (const p of parts) {
    const [name, value = ""] = p.split("=");
    if (name === "retry") k.retry = true;
    else if (name === "temporary") k.temporary = true;
    else if (name === "reason") k.reason = value as FailureReason;
    else if (name === "by") k.suppressedBy = value as SuppressingList;
    else if (name === "class") k.bounceClass = Number(value);
    else if (name === "listed") k.listed = value;
    else if (name === "band") k.band = value as "in" | "out";
    else if (name === "bot") k.bot = true;
    else if (name === "firsts") k.firsts = value ? (value.split("+") as First[]) : [];
  }
  return k;
}
