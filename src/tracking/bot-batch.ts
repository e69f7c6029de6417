// How a batch of the bot API is judged beyond one event at a time. The events are judged in the
// order they happened (bot-api.ts), each with the ones before it, as a live endpoint would judge
// them. A batch, though, is a window the caller already saw, and two things in it reach back to
// fetches no live endpoint could have judged when they came:
// - a burst (a pattern verdict: several links within seconds): the same client's fetches of that
//   message a few seconds before it were the burst's first ones;
// - a person's click right after a fetch of the same message from a security vendor's network or
//   cloud space (where the gateways' sandboxes run): that fetch was the gateway's time-of-click
//   check, which it makes before it lets the person through (Mimecast URL Protect, Trend Micro
//   Time-of-Click, Proofpoint URL Defense rewrite the link to their own service, check the target
//   when it is clicked, then redirect the browser); a fetch from a vendor's network or cloud space
//   up to 15 s after the person's click is its check as well (resend/resend-node#901: a scanner's
//   fetch 12 s after a person's click, from another network, another OS, the same browser).
// - a bot verdict on a fetch from one address in cloud space, or from a security vendor's network:
//   that address's (that vendor's) fetches of the message up to a minute before it were the same
//   sandbox's. Its first fetches of a message can come before what gives it away: a pinned old
//   browser, a second link within seconds;
// - a vendor's bot fetch of one link: a cloud fetch of another link of the message within seconds of it,
//   with the same browser build, was the same sandbox's (withCompanionsLookedAhead);
// - two bot fetches of a message from one cloud address: its further fetches of it within the minute are
//   the same sandbox's (withSandboxesFollowedUp);
// - two addresses of one cloud fetching two links of a message within seconds, soon after delivery or
//   undated: one sandbox spread over its cloud (withCloudSpreadLookedAhead).
// Those are revised to bots; nothing else is.
import type { BotVerdict } from "./bot/index.ts";

/** The pattern's burst window: one client's fetches of a message this close belong to one burst. */
const BURST_MS = 5_000;
/** How far back one sandbox's bot verdict reaches over its fetches of the message: the pattern's window. */
const SANDBOX_MS = 60_000;
/** How long after delivery two addresses of one cloud on a message's links are a sandbox: every delivery-time sandbox is done by 5 minutes. */
const SPREAD_WINDOW_S = 300;
/** How many of one cloud address's bot fetches of a message within the window mark its next fetch of it. */
const SANDBOX_FOLLOW_UPS = 2;
/** How far a gateway's check may come from the person's own click it lets through (or re-checks). */
const CHECK_MS = 5_000;
/** How long after the person's click a check of it may still come: Defender's came 12 s after (resend/resend-node#901). */
const LATE_CHECK_MS = 15_000;
/** Sooner than this after a person's click, a cloud click may be that person's own (an isolation browser starting). */
const CLOUD_CHECK_AFTER_MS = 3_000;

export interface JudgedEvent {
  /** When it happened (ms), or undefined when the caller gave no time (then it is not revised). */
  at: number | undefined;
  /** One group per client the click belongs to (message, recipient and client: its UA, a vendor's network); none for opens. */
  groups: readonly string[];
  /** For a click: its message and recipient, the link when the caller named it, and the vendor's or cloud network it came from. */
  message?: string;
  link?: string;
  vendor?: string;
  cloud?: string;
  /** For a click from cloud space: its address. */
  address?: string;
  /** Seconds from the message's delivery to the click, when the caller gave both times. */
  sinceDelivery?: number;
  verdict: BotVerdict;
}

const isBurst = (v: BotVerdict) => v.isBot && v.reasons.some((r) => r.startsWith("pattern:"));
/** Two clicks of a message fetched different links: as named by the caller, else as the API's whole seconds tell them apart. */
const isOtherLink = (a: JudgedEvent, b: JudgedEvent) => (a.link !== undefined && b.link !== undefined ? a.link !== b.link : a.at !== b.at);
/** Another link of the message fetched within one burst of this click: one sandbox working through its links. */
const isBurstPeer = (a: JudgedEvent, b: JudgedEvent) => Math.abs(b.at! - a.at!) <= BURST_MS && isOtherLink(a, b);

/** Indices of timed events by key, each list in time order (the batch's order within one instant). */
function byKey(events: readonly JudgedEvent[], keys: (e: JudgedEvent) => readonly string[]): number[][] {
  const lists = new Map<string, number[]>();
  events.forEach((e, i) => {
    if (e.at === undefined) return;
    for (const key of keys(e)) {
      const list = lists.get(key);
      if (list) list.push(i);
      else lists.set(key, [i]);
    }
  });
  const out = [...lists.values()];
  for (const list of out) list.sort((a, b) => events[a]!.at! - events[b]!.at! || a - b);
  return out;
}

/**
 * Marks bots, in each key's list, the events up to `windowMs` before an event whose verdict `reaches`
 * (later ones first, so a revision never reaches further itself).
 */
function reachBack(events: readonly JudgedEvent[], out: boolean[], keys: (e: JudgedEvent) => readonly string[],
  reaches: (v: BotVerdict) => boolean, windowMs: number): boolean[] {
  for (const indices of byKey(events, keys)) {
    let reach = Infinity;
    for (let k = indices.length - 1; k >= 0; k--) {
      const e = events[indices[k]!]!;
      if (e.at! >= reach) out[indices[k]!] = true;
      if (reaches(e.verdict)) reach = e.at! - windowMs;
    }
  }
  return out;
}

/** Each event's verdict, with the fetches before a burst's verdict (same group, within the window) made bots. */
export function withBurstsLookedAhead(events: readonly JudgedEvent[], out = events.map((e) => e.verdict.isBot)): boolean[] {
  return reachBack(events, out, (e) => e.groups, isBurst, BURST_MS);
}

/**
 * Each event's verdict, with a fetch from a vendor's or cloud network made a bot when a person's click
 * of the link follows it within seconds from elsewhere. The person is never in vendor space; after a
 * vendor's check the person may be on a cloud desktop, after a cloud sandbox's check not. A vendor's or
 * cloud fetch up to 15 s after the person's click is its check too (some check after they let the person
 * through); a cloud click sooner than 3 s after may be the person's own, an isolation browser starting.
 */
export function withChecksLookedAhead(events: readonly JudgedEvent[], out = events.map((e) => e.verdict.isBot)): boolean[] {
  const isPersonBeside = (check: JudgedEvent, other: JudgedEvent) =>
    !other.verdict.isBot && other.vendor === undefined && (check.vendor !== undefined || other.cloud === undefined)
    && (check.link === undefined || other.link === undefined || check.link === other.link);
  for (const indices of byKey(events, (e) => (e.message !== undefined ? [e.message] : []))) {
    indices.forEach((i, k) => {
      const e = events[i]!;
      if (e.vendor === undefined && e.cloud === undefined) return;
      const after = indices.slice(k + 1).filter((j) => events[j]!.at! - e.at! <= CHECK_MS);
      const before = indices.slice(0, k).filter((j) => {
        const since = e.at! - events[j]!.at!;
        return since <= LATE_CHECK_MS && (e.vendor !== undefined || since > CLOUD_CHECK_AFTER_MS);
      });
      if ([...after, ...before].some((j) => isPersonBeside(e, events[j]!))) out[i] = true;
    });
  }
  return out;
}

/**
 * Each event's verdict, with a sandbox's fetches of a message made bots when the classifier's bot verdict
 * on the same sandbox's fetch of it follows within the pattern window (60 s). A sandbox is one address in
 * cloud space, or one security vendor's network, the client the patterns count it as (context.clientsOf).
 * A person on a cloud desktop or behind the vendor's isolation is joined to it only by a later click of
 * that message the classifier itself called a bot; a person elsewhere never is. Revisions do not chain.
 */
export function withSandboxesLookedAhead(events: readonly JudgedEvent[], out = events.map((e) => e.verdict.isBot)): boolean[] {
  const keyOf = (e: JudgedEvent) => {
    if (e.message === undefined) return [];
    if (e.vendor !== undefined) return [`${e.message}\u0000net:${e.vendor}`];
    return e.cloud !== undefined && e.address !== undefined ? [`${e.message}\u0000ip:${e.address}`] : [];
  };
  return reachBack(events, out, keyOf, (v) => v.isBot, SANDBOX_MS);
}

/**
 * Each event's verdict, with a fetch from cloud space made a bot when the same browser (the same UA)
 * fetched another link of the message from a security vendor's network within seconds of it, and that
 * fetch is a bot's: one sandbox spreading a message's links over the vendor's own addresses and the cloud
 * it runs in (Safe Links fetches from Exchange Online's 40.94/16, mautic/mautic#9400, and from Azure,
 * 172.176.117.104 in fin3ss3g0d/evilgophish#81; a link per address, emdash-cms/emdash#3298). A person on a cloud
 * desktop clicking while the scanner works is joined to it only on another link, in those seconds, with
 * the scanner's browser build to the letter.
 */
export function withCompanionsLookedAhead(events: readonly JudgedEvent[], out = events.map((e) => e.verdict.isBot)): boolean[] {
  const before = [...out];
  for (const indices of byKey(events, (e) => (e.message !== undefined && e.groups[0] !== undefined ? [e.groups[0]] : []))) {
    for (const i of indices) {
      const e = events[i]!;
      if (out[i] || e.cloud === undefined) continue;
      out[i] = indices.some((j) => before[j]! && events[j]!.vendor !== undefined && isBurstPeer(e, events[j]!));
    }
  }
  return out;
}

/**
 * Each event's verdict, with a fetch from one cloud address made a bot when two of that address's fetches
 * of the message in the minute before it are bots: the same sandbox working on through the message's links
 * after its burst gave it away (a burst is 5 s; a sandbox detonating a newsletter's every link takes longer).
 * A person on a cloud desktop is joined to it only after two of their own clicks of the message were bots.
 */
export function withSandboxesFollowedUp(events: readonly JudgedEvent[], out = events.map((e) => e.verdict.isBot)): boolean[] {
  const before = [...out];
  const keyOf = (e: JudgedEvent) => (e.message !== undefined && e.cloud !== undefined && e.address !== undefined ? [`${e.message}\u0000ip:${e.address}`] : []);
  for (const indices of byKey(events, keyOf)) {
    indices.forEach((i, k) => {
      const prior = indices.slice(0, k).filter((j) => before[j] && events[i]!.at! - events[j]!.at! <= SANDBOX_MS);
      if (prior.length >= SANDBOX_FOLLOW_UPS) out[i] = true;
    });
  }
  return out;
}

/**
 * Each event's verdict, with a click from cloud space made a bot when another address of the same cloud
 * fetched another link of the recipient's message within 5 s of it, both in the first 5 minutes after
 * delivery or undated: one sandbox spread over its cloud's addresses, a link per address (Defender's
 * detonation: emdash-cms/emdash#3298, gophish#2446; mautic/mautic#9400). The provider's burst needs three
 * links in 5 s from any of its addresses; two from two addresses is enough, since a person on a cloud
 * desktop or isolation browser keeps one address for the session. Later than that, the pair may be a person
 * let through a gateway's check of the link, and two colleagues' desktops never share a recipient's message.
 */
export function withCloudSpreadLookedAhead(events: readonly JudgedEvent[], out = events.map((e) => e.verdict.isBot)): boolean[] {
  const keyOf = (e: JudgedEvent) => (e.message !== undefined && e.cloud !== undefined && e.address !== undefined
    && (e.sinceDelivery === undefined || e.sinceDelivery < SPREAD_WINDOW_S) ? [`${e.message}\u0000cloud:${e.cloud}`] : []);
  for (const indices of byKey(events, keyOf)) {
    for (const i of indices) {
      const e = events[i]!;
      if (!out[i]) out[i] = indices.some((j) => events[j]!.address !== e.address && isBurstPeer(e, events[j]!));
    }
  }
  return out;
}

/** The batch's verdicts with every look-ahead. */
export function withLookAhead(events: readonly JudgedEvent[]): boolean[] {
  const revised = withChecksLookedAhead(events, withSandboxesLookedAhead(events, withBurstsLookedAhead(events)));
  return withCloudSpreadLookedAhead(events, withSandboxesFollowedUp(events, withCompanionsLookedAhead(events, revised)));
}

/** The groups of a click: one client's fetches of one message of one recipient, for each client it belongs to. */
export function burstGroups(e: { action?: string; message_id?: string; recipient_id?: string }, clients: readonly string[]): string[] {
  if ((e.action ?? "click") !== "click" || typeof e.message_id !== "string") return [];
  return clients.map((client) => `${e.message_id}\u0000${e.recipient_id ?? ""}\u0000${client}`);
}
