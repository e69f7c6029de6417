// The one read behind the vendor stats: every event of a range as a stat fact (its stat key and
// the dimensions reports group by), from the live events and from what retention rolled up
// (rollup.ts), so SendGrid's stats and SparkPost's metrics count the same before and after the
// events are deleted. A rolled-up hour is counted whole when a range starts or ends inside it.
import type { ZoneStore } from "../store-port.ts";
import type { MessageEvent } from "../model.ts";
import type { StatRollupQuery } from "../retention-port.ts";
import type { StatRollup } from "./rollup-model.ts";
import { decodeStatKey, statKeyOf, type StatKey } from "./stat-key.ts";
import { deliveredBytes } from "./rollup.ts";
import { emailDomain } from "../address/address.ts";

export interface StatFact {
  /** The event's time, or the start of the hour a rolled-up count belongs to. */
  at: number;
  domain: string;
  /** Live: the event's tags; rolled up: the one tag the row counts ([] for the rows of every event). */
  tags: string[];
  rcptDomain: string;
  campaign: string;
  template: string;
  ipPool: string;
  key: StatKey;
  n: number;
  bytes: number;
  /** Live opens and clicks recorded without firsts: their message and recipient, so a reader can count them once. */
  who?: string;
}

export interface StatFactQuery {
  begin: number;
  /** Inclusive. */
  end: number;
  /** Rolled-up rows wanted: of every event (absent), of these tags, or of every tag ("*"). */
  tags?: StatRollupQuery["tags"];
  /** Read each live event's message for campaign, template, pool and size (they cost a read per message). */
  withMessages?: boolean;
  /** Only events of these types (the store filters the live ones; rolled-up rows by their key). */
  types?: string[];
}

const SCAN_BATCH = 1000;
const MAX_EVENTS = 500_000;
/** Reads of a zone while sweeps keep coming between them; the last one is kept. */
const MAX_READS = 5;

async function liveFacts(zone: ZoneStore, domain: string | undefined, q: StatFactQuery, out: StatFact[]) {
  const heads = new Map<string, Awaited<ReturnType<ZoneStore["getMessageHead"]>>>();
  const head = async (id: string) => heads.get(id) ?? heads.set(id, await zone.getMessageHead(id)).get(id) ?? null;
  let cursor: string | undefined;
  for (let read = 0; read < MAX_EVENTS; read += SCAN_BATCH) {
    const batch = await zone.searchEvents({ ...(domain && { domain }), begin: q.begin, end: q.end, ascending: true, limit: SCAN_BATCH,
      ...(cursor && { cursor }), ...(q.types && { types: q.types }) });
    for (const e of batch) out.push(factOf(e, q.withMessages ? await head(e.messageId) : null));
    if (batch.length < SCAN_BATCH) return;
    cursor = batch.at(-1)!.id;
  }
}

function factOf(e: MessageEvent, m: { size: number; extra?: { campaignId?: string; templateId?: string; ipPool?: string } } | null): StatFact {
  const key = statKeyOf(e);
  const x = m?.extra ?? {};
  return { at: e.timestamp, domain: e.domain, tags: e.tags, rcptDomain: emailDomain(e.recipient), campaign: x.campaignId ?? "",
    template: x.templateId ?? "", ipPool: x.ipPool ?? "", key, n: 1, bytes: deliveredBytes(e, m),
    ...((e.type === "opened" || e.type === "clicked") && !key.firsts ? { who: `${e.messageId}\n${e.recipient}` } : {}) };
}

const total = (rows: StatRollup[]) => rows.reduce((n, r) => n + r.n, 0);

/**
 * The facts of `domain` (or every domain of `zones`) in the range, live events first (oldest first),
 * then the rolled-up rows. A sweep commits its rollups and its deletes together, but a read of
 * both is two reads: the rollups are read before and after the events, and the read is done again
 * when a sweep came between (so no event is counted twice nor missed).
 */
export async function readStatFacts(zones: ZoneStore[], domain: string | undefined, q: StatFactQuery): Promise<StatFact[]> {
  const out: StatFact[] = [];
  const rq = { ...(domain && { domain }), begin: q.begin, end: q.end, ...(q.tags && { tags: q.tags }) };
  for (const zone of zones) {
    let live: StatFact[] = [];
    let rolled = await zone.statRollups(rq);
    for (let attempt = 0; attempt < MAX_READS; attempt++) {
      live = [];
      await liveFacts(zone, domain, q, live);
      const again = await zone.statRollups(rq);
      const settled = total(again) === total(rolled);
      rolled = again;
      if (settled) break;
    }
    out.push(...live);
    for (const r of rolled) {
      if (q.types && !q.types.includes(decodeStatKey(r.stat).type)) continue;
      out.push({ at: r.bucket, domain: r.domain, tags: r.tag ? [r.tag] : [], rcptDomain: r.rcptDomain, campaign: r.campaign, template: r.template,
        ipPool: r.ipPool, key: decodeStatKey(r.stat), n: r.n, bytes: r.bytes });
    }
  }
  return out;
}
