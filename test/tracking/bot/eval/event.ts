// One labelled event of the independent evaluation, in the shape the shared replay reads.

import type { EvalEvent } from "../../../fixtures/bots/eval-set.ts";
import type { Message } from "./population.ts";

export interface Emit {
  kind: "open" | "click" | "honeypot";
  /** Seconds after delivery. */
  t: number;
  ip: string;
  ua: string;
  link?: number;
  method?: "GET" | "HEAD";
  label: "human" | "bot";
  family: string;
  scenario: string;
}

export function toEvent(msg: Message, e: Emit): EvalEvent {
  const out: EvalEvent = {
    index: 0,
    messageId: msg.id,
    recipientId: msg.recipient.id,
    recipientDomain: msg.recipient.domain,
    kind: e.kind,
    atMs: Math.round((msg.deliveredAt + e.t) * 1000),
    method: e.method ?? "GET",
    ip: e.ip,
    userAgent: e.ua,
    linkCount: msg.linkCount,
    label: e.label,
    family: e.family,
    scenario: e.scenario,
    split: "test",
    isHeldOut: false,
  };
  if (msg.isTimingKnown) out.secondsSinceDelivery = Math.round(e.t * 1000) / 1000;
  if (msg.isMxKnown) out.mxHosts = msg.recipient.org.mxHosts;
  if (e.link !== undefined && e.kind === "click") out.linkId = `l${e.link}`;
  return out;
}
