// How a batch of the bot API is judged beyond one event at a time. The events are judged in the
// order they happened (bot-api.ts), each with the ones before it, as a live endpoint would judge
// them. A batch, though, is a window the caller already saw: when a client's later fetches of a
// message make a burst (a pattern verdict: several links within seconds), the fetches of that
// client and message a few seconds before it were the same burst's first ones, which no live
// endpoint could have known. Those are revised to bots; nothing else is.
import type { BotVerdict } from "./bot/index.ts";

/** The pattern's burst window: one client's fetches of a message this close belong to one burst. */
const BURST_MS = 5_000;

export interface JudgedEvent {
  /** When it happened (ms), or undefined when the caller gave no time (then it is not revised). */
  at: number | undefined;
  /** The client's fetches of one message (message, recipient and user agent); undefined for opens. */
  group: string | undefined;
  verdict: BotVerdict;
}

const isBurst = (v: BotVerdict) => v.isBot && v.reasons.some((r) => r.startsWith("pattern:"));

/** Each event's verdict, with the fetches before a burst's verdict (same group, within the window) made bots. */
export function withBurstsLookedAhead(events: readonly JudgedEvent[]): boolean[] {
  const out = events.map((e) => e.verdict.isBot);
  const groups = new Map<string, number[]>();
  events.forEach((e, i) => {
    if (e.group === undefined || e.at === undefined) return;
    const list = groups.get(e.group);
    if (list) list.push(i);
    else groups.set(e.group, [i]);
  });
  for (const indices of groups.values()) {
    indices.sort((a, b) => events[a]!.at! - events[b]!.at! || a - b);
    let reach = Infinity;
    for (let k = indices.length - 1; k >= 0; k--) {
      const e = events[indices[k]!]!;
      if (e.at! >= reach) out[indices[k]!] = true;
      if (isBurst(e.verdict)) reach = e.at! - BURST_MS;
    }
  }
  return out;
}

/** The group of a click: one client's fetches of one message of one recipient. */
export function burstGroup(e: { action?: string; message_id?: string; recipient_id?: string; uas?: string }): string | undefined {
  if ((e.action ?? "click") !== "click" || typeof e.message_id !== "string") return undefined;
  return `${e.message_id}\u0000${e.recipient_id ?? ""}\u0000${e.uas ?? ""}`;
}
