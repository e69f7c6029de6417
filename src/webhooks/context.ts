// What a webhook payload is built from: the stored event plus the few facts of its message that
// every format reports. Stored in the outbox as JSON, formatted and signed at POST time.
import type { MessageEvent } from "../core/model.ts";

export interface MessageSummary {
  id: string;
  messageIdHeader: string;
  from: string;
  subject: string;
  size: number;
  source: string;
  isTest: boolean;
  createdAt: number;
  /** The send (SparkPost transmission) and its request-level facts; absent in items queued by older versions. */
  sendId?: string;
  campaignId?: string;
  asmGroupId?: number;
  ipPool?: string;
}

export interface EventContext {
  event: MessageEvent;
  message: MessageSummary | null;
  /** The tenant of the event's domain (SparkPost's `subaccount_id`); absent: 0, the primary. */
  tenant?: number;
}

/** The Message-ID without angle brackets, as Mailgun and SparkPost report it. */
export const bareMessageId = (header: string | undefined) => (header ?? "").replace(/^<|>$/g, "");
export const seconds = (ms: number) => Math.floor(ms / 1000);
