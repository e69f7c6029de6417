// What retention keeps of the events it deletes, for the vendor stats: counts per sending domain,
// hour, stat key (stat-key.ts) and the dimensions reports group by (recipient domain, campaign,
// template, IP pool), plus one row per tag with those dimensions left out (category stats need the
// tag, not the rest). Engines call `foldStats` (handed to them by the sweeper) inside the
// transaction that deletes the events, so a count is never lost nor kept twice.
import type { MessageEvent } from "../model.ts";
import type { FoldInput, StatFold, StatRollup } from "./rollup-model.ts";
import { encodeStatKey, statKeyOf } from "./stat-key.ts";
import { firstsOf } from "./firsts.ts";
import { emailDomain } from "../address/address.ts";

export type { FoldInput, StatFold, StatRollup } from "./rollup-model.ts";

export const HOUR_MS = 3_600_000;


/** The message's size when the event delivered it (a report's total volume). */
export const deliveredBytes = (e: MessageEvent, m: FoldInput["message"]) => (e.type === "delivered" ? m?.size ?? 0 : 0);

/**
 * The rollups of `rows`. Opens and clicks recorded before firsts were flagged get theirs from
 * the opens and clicks of the same batch (the best left once the earlier ones are gone).
 */
export const foldStats: StatFold = (rows) => {
  const out = new Map<string, StatRollup>();
  const add = (r: Omit<StatRollup, "n" | "bytes">, bytes: number) => {
    const id = [r.domain, r.bucket, r.tag, r.rcptDomain, r.campaign, r.template, r.ipPool, r.stat].join("\n");
    const row = out.get(id) ?? out.set(id, { ...r, n: 0, bytes: 0 }).get(id)!;
    row.n++;
    row.bytes += bytes;
  };
  const earlier = new Map<string, MessageEvent[]>();
  for (const { event, message } of [...rows].sort((a, b) => a.event.timestamp - b.event.timestamp || a.event.id.localeCompare(b.event.id))) {
    let e = event;
    if (e.type === "opened" || e.type === "clicked") {
      const who = `${e.messageId}\n${e.recipient}`;
      const seen = earlier.get(who) ?? earlier.set(who, []).get(who)!;
      if (!e.firsts) e = { ...e, firsts: firstsOf(e, seen) };
      seen.push(e);
    }
    const stat = encodeStatKey(statKeyOf(e));
    const bucket = Math.floor(e.timestamp / HOUR_MS) * HOUR_MS;
    const x = message?.extra ?? {};
    add({ domain: e.domain, bucket, tag: "", rcptDomain: emailDomain(e.recipient), campaign: x.campaignId ?? "", template: x.templateId ?? "",
      ipPool: x.ipPool ?? "", stat }, deliveredBytes(e, message));
    for (const tag of new Set(e.tags)) add({ domain: e.domain, bucket, tag, rcptDomain: "", campaign: "", template: "", ipPool: "", stat }, 0);
  }
  return [...out.values()];
};
