// What people do with a message: open it (through the transport their client uses) and click a
// link or two. Parameters from the research notes (shared/docs/bots-deliverability.md):
// - §1.4, MailerMailer/MailChimp/Inntopia: ~30% of opens in the first hour, ~53% by 6 h, ~78% by 24 h,
//   ~95% within 7 days, a tail to 30 days.
// - §3.3: clicks mostly on one link (70%), two (20%), three or more (10%), 5 s-10 min apart, 3-120 s
//   after the open; about 20% of clicks with no open (images off); 0.1-0.5% tap the hidden link.
// - Fast readers: people with the client open click within a minute of delivery (metacompliance:
//   "minutes" is normal, but real-time inboxes make seconds possible); the brief's hard case.
// - Transports: Apple Mail with MPP preloads at delivery through Apple's egress (bare Mozilla/5.0);
//   Gmail on the web opens through Google's image proxy; clicks come from the person's own network:
//   office NAT, Azure Virtual Desktop / Windows 365, iCloud Private Relay, carrier networks, or a
//   vendor's browser isolation (Proofpoint, Mimecast).

import { APPLE_MPP_UA, GMAIL_PROXY_UA } from "./agents.ts";
import { addressOf } from "./facts.ts";
import type { Emit } from "./event.ts";
import type { Message, Recipient } from "./population.ts";
import type { Rand } from "./rng.ts";

/** Click and open propensities are raised so each hard case has hundreds of clicks; not real prevalence. */
export const PEOPLE = { openRate: 0.55, clickGivenOpen: 0.4, clickWithoutOpen: 0.08, fastReader: 0.05, honeypotTap: 0.004 };

function openDelay(rand: Rand): number {
  return rand.weighted<() => number>([
    [() => rand.logUniform(20, 3600), 30],
    [() => rand.uniform(3600, 6 * 3600), 23],
    [() => rand.uniform(6 * 3600, 24 * 3600), 25],
    [() => rand.uniform(86400, 7 * 86400), 17],
    [() => rand.uniform(7 * 86400, 30 * 86400), 5],
  ])();
}

function clickIp(rand: Rand, r: Recipient): string {
  // Private Relay picks an egress per connection; the rest keep one address for a while.
  return r.network === "private-relay" ? addressOf(rand, "apple") : r.fixedIp;
}

function human(r: Recipient, scenario: string, kind: Emit["kind"], t: number, ip: string, ua: string, link?: number): Emit {
  return { kind, t, ip, ua, link, label: "human", family: "person", scenario: scenario || r.network };
}

function opens(rand: Rand, msg: Message, at: number): Emit[] {
  const r = msg.recipient;
  const out: Emit[] = [];
  if (r.usesAppleMailMpp) {
    // MPP preloads on arrival and fetches again when the message is read: machine opens both.
    for (const t of [rand.uniform(1, 900), at]) {
      out.push({ kind: "open", t, ip: addressOf(rand, "apple"), ua: APPLE_MPP_UA, label: "bot", family: "apple-mpp", scenario: "mpp" });
    }
  } else if (r.usesGmailWeb) {
    out.push(human(r, "gmail-proxy", "open", at, addressOf(rand, "googleProxy"), GMAIL_PROXY_UA));
  } else {
    out.push(human(r, "", "open", at, clickIp(rand, r), r.ua));
  }
  return out;
}

function linksToClick(rand: Rand, linkCount: number): number[] {
  const n = Math.min(linkCount, rand.weighted([[1, 70], [2, 20], [3, 10]] as const));
  const links = new Set<number>();
  while (links.size < n) links.add(rand.int(0, linkCount - 1));
  return [...links];
}

/** A person's events for one message: opens, then maybe clicks (or a fast one-link click). */
export function personEvents(rand: Rand, msg: Message): Emit[] {
  const r = msg.recipient;
  const out: Emit[] = [];
  if (rand.chance(PEOPLE.fastReader * PEOPLE.openRate)) {
    // Reads at once and clicks one link 8-60 s after delivery, often before any open is recorded.
    const t = rand.uniform(8, 60);
    out.push(human(r, "fast-one-link", "click", t, clickIp(rand, r), r.ua, rand.int(0, msg.linkCount - 1)));
    return out;
  }
  const isOpened = rand.chance(PEOPLE.openRate);
  const openAt = openDelay(rand);
  if (isOpened) out.push(...opens(rand, msg, openAt));
  const isClicking = isOpened ? rand.chance(PEOPLE.clickGivenOpen) : rand.chance(PEOPLE.clickWithoutOpen);
  if (!isClicking) return out;
  let t = (isOpened ? openAt : openDelay(rand)) + rand.logUniform(3, 120);
  const ua = r.ua;
  const ip = clickIp(rand, r);
  if (rand.chance(PEOPLE.honeypotTap)) {
    out.push(human(r, "honeypot-tap", "honeypot", t, ip, ua));
    t += rand.uniform(2, 20);
  }
  for (const link of linksToClick(rand, msg.linkCount)) {
    out.push(human(r, "", "click", t, r.network === "private-relay" ? clickIp(rand, r) : ip, ua, link));
    t += rand.logUniform(5, 600);
  }
  return out;
}
