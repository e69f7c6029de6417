// What a stored message holds until delivery: the envelope's content, composed into MIME (with
// tracking and DKIM) per delivery attempt so the accept path stays a single cheap write.
import type { Address } from "./model.ts";

export interface MessageContent {
  from: Address;
  replyTo?: Address[];
  to: Address[];
  cc?: Address[];
  /** Header-only To / Cc lists that replace `to` / `cc` in the headers (see SendEnvelope). */
  displayTo?: Address[];
  displayCc?: Address[];
  subject: string;
  text?: string;
  html?: string;
  amp?: string;
  headers?: Record<string, string>;
  /** Indexes into the send's attachments table (shared by every envelope of one send). */
  attachments: number[];
  tracking: { opens: boolean; clicks: boolean; clickText: boolean; unsubscribe: boolean; honeypot: boolean; openTag?: string; groups?: number[] };
  /** RFC 5322 Date in ms (the accept time). */
  date: number;
}

export const encodeContent = (c: MessageContent) => JSON.stringify(c);
export const decodeContent = (s: string) => JSON.parse(s) as MessageContent;

/**
 * True when the encoded content lists attachments. `"attachments":[]` with its quotes unescaped
 * can only be the top-level key (every other array holds addresses or numbers, every other
 * user-given key has a string value), so an empty list is told by one native search: delivery
 * asks this for every message, and a full parse of a 5 KB body was 1 % of the server's CPU.
 */
export const listsAttachments = (s: string) => !s.includes('"attachments":[]') && decodeContent(s).attachments.length > 0;
