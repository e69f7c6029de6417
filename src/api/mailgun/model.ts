// Mailgun's wire vocabulary: webhook ids, event names, suppression tables and their messages,
// dates (RFC 2822 out, RFC 2822 or epoch seconds in). Request bodies are forms, checked by hand
// in the mappers (form.ts reads them); this file holds the names and shapes they map to.
import type { EventType, SuppressionType } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";

export const QUEUED_MESSAGE = "Queued. Thank you.";

/** Mailgun webhook ids → the native event type a target of that id receives. */
export const WEBHOOK_EVENTS: Record<string, EventType> = {
  accepted: "accepted", delivered: "delivered", opened: "opened", clicked: "clicked",
  unsubscribed: "unsubscribed", complained: "complained", permanent_fail: "failed", temporary_fail: "deferred",
};

// mailgun.js's WebhooksIds.UNSUBSCRIBED is "unsubscribe"; the others are the v2 names old code uses.
const WEBHOOK_ALIASES: Record<string, string> = {
  unsubscribe: "unsubscribed", open: "opened", click: "clicked", deliver: "delivered",
  spam: "complained", bounce: "permanent_fail", drop: "permanent_fail",
};

export const MAX_WEBHOOK_URLS = 3;

/** The canonical Mailgun webhook id for `id` (aliases resolved), or a 400. */
export function webhookId(id: string | undefined): string {
  const lower = (id ?? "").trim().toLowerCase();
  const canonical = WEBHOOK_ALIASES[lower] ?? lower;
  if (!(canonical in WEBHOOK_EVENTS)) {
    throw invalid(`invalid webhook id "${id ?? ""}": use one of ${Object.keys(WEBHOOK_EVENTS).join(", ")}`, "id");
  }
  return canonical;
}

/** Native event type → Mailgun event name (deferred and failed are both "failed", told apart by severity). */
export const EVENT_NAMES: Record<EventType, string> = {
  accepted: "accepted", delivered: "delivered", deferred: "failed", failed: "failed", opened: "opened",
  clicked: "clicked", unsubscribed: "unsubscribed", complained: "complained", rejected: "rejected",
};

export interface SuppressionTable {
  type: SuppressionType;
  added: string;
  notFound: string;
  removed: string;
  removedAll: string;
}

export const SUPPRESSION_TABLES: Record<SuppressionType, SuppressionTable> = {
  bounces: { type: "bounces", added: "bounces", notFound: "Address not found in bounces table",
    removed: "Bounced address has been removed", removedAll: "Bounced addresses for this domain have been removed" },
  unsubscribes: { type: "unsubscribes", added: "unsubscribes", notFound: "Address not found in unsubscribers table",
    removed: "Unsubscribe event has been removed", removedAll: "Unsubscribe events for this domain have been removed" },
  complaints: { type: "complaints", added: "complaints", notFound: "No spam complaints found for this address",
    removed: "Spam complaint has been removed", removedAll: "Spam complaints for this domain have been removed" },
  whitelists: { type: "whitelists", added: "whitelists", notFound: "Address/Domain not found in whitelists table",
    removed: "Whitelist address/domain has been removed", removedAll: "Whitelist addresses/domains for this domain have been removed" },
};

/** Suppression list sizes: Mailgun's default and maximum page, and its bulk-create cap. */
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;
export const MAX_BULK_SUPPRESSIONS = 1000;

/** Dates go out as `toUTCString()` (RFC 2822, "GMT"), which mailgun.js parses with `new Date`. */
export const formatDate = (ms: number) => new Date(ms).toUTCString();

/** Event timestamps are float epoch seconds. */
export const toEpochSeconds = (ms: number) => ms / 1000;

/** An RFC 2822 date or unix epoch seconds (stats and events take either); null when neither. */
export function parseDate(text: string | undefined): number | null {
  const v = text?.trim();
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

/** Like parseDate, but a present value that does not parse is a 400 naming the parameter. */
export function requireDate(text: string | undefined, field: string): number | null {
  if (text === undefined || text.trim() === "") return null;
  const ms = parseDate(text);
  if (ms === null) throw invalid(`${text} is not an RFC-2822 compliant date`, field);
  return ms;
}
