// Account notices: events that are about the installation, not about a message (a blocklist
// listing an egress address or a domain). They go to the account-wide native webhooks of their
// type and to domains' own webhooks of that type: a listed host's domain, or for an address every
// domain (an egress address carries every domain's mail; docs/events.md).

export const NOTICE_TYPES = ["ip_listed", "ip_delisted", "domain_listed", "domain_delisted"] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];
export const isNoticeType = (t: string): t is NoticeType => (NOTICE_TYPES as readonly string[]).includes(t);
/** Notices about the installation's egress addresses (the operator's), not about a domain. */
export const isEgressNotice = (t: string) => t === "ip_listed" || t === "ip_delisted";

/** One notice as posted in `event-data`. */
export interface Notice {
  event: NoticeType;
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The egress address or host name. */
  subject: string;
  /** The blocklist zone as configured, and its answer ("127.0.0.2"; "" when delisted). */
  zone: string;
  answer: string;
  /** The sending domain a listed host belongs to; absent for an address. */
  domain?: string;
}

/** The notice of a blocklist entry turning listed or clear. */
export function blocklistNotice(c: { subject: string; to: "listed" | "clear"; at: number; zone: string; entryKind: "ip" | "domain"; answer: string; domain: string | null },
  id: string): Notice {
  const event = `${c.entryKind}_${c.to === "listed" ? "listed" : "delisted"}` as NoticeType;
  return { event, id, timestamp: Math.floor(c.at / 1000), subject: c.subject, zone: c.zone, answer: c.answer, ...(c.domain ? { domain: c.domain } : {}) };
}
