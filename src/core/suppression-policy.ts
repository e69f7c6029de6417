// Which recorded events put an address on a suppression list: the one rule every producer (MTA
// outcomes, inbound reports, tracking) goes through, applied by the recorder. Pure.
import type { MessageEvent } from "./model.ts";
import type { Suppression } from "../store/store.ts";

/** SMTP reply codes are three digits below 600; 605 and friends are our own accept-time codes. */
const isSmtpCode = (code: number | undefined): code is number => code !== undefined && code >= 200 && code < 600;

/**
 * The suppression `event` implies, or null:
 * - a permanent failure about the address (a remote SMTP refusal, or DNS saying the domain takes
 *   no mail: 5.1.x) puts it on `bounces`; a queue lifetime running out (reason "old"), local policy
 *   (a deleted sending domain), an administrator's purge and accept-time refusals of already
 *   suppressed addresses (code 605) say nothing about the address;
 * - a complaint puts it on `complaints`, an unsubscribe on `unsubscribes`.
 */
export function suppressionFor(event: MessageEvent): Suppression | null {
  const base = { domain: event.domain, address: event.recipient.toLowerCase(), scope: null, createdAt: event.timestamp };
  switch (event.type) {
    case "failed": {
      if (event.severity !== "permanent" || event.reason === "old") return null;
      const isAboutAddress = isSmtpCode(event.code) || (event.code === undefined && (event.enhancedCode ?? "").startsWith("5.1."));
      if (!isAboutAddress) return null;
      return { ...base, type: "bounces", reason: (event.description ?? "").slice(0, 500), code: String(event.code ?? event.enhancedCode ?? 550) };
    }
    case "complained":
      return { ...base, type: "complaints", reason: "complaint (ARF)", code: "" };
    case "unsubscribed":
      return { ...base, type: "unsubscribes", reason: event.url === "list-unsubscribe" ? "one-click unsubscribe (RFC 8058)" : "unsubscribe link", code: "" };
    default:
      return null;
  }
}

/** Every suppression a batch of events implies, in event order. */
export function suppressionsFor(events: MessageEvent[]): Suppression[] {
  const out: Suppression[] = [];
  for (const e of events) {
    const s = suppressionFor(e);
    if (s) out.push(s);
  }
  return out;
}
