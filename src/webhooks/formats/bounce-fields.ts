// The bounce verdict (core/bounce: a SparkPost class) in each vendor's words: SparkPost's
// bounce_class, Mailgun's severity / reason / bounce-type, SendGrid's bounce type and
// bounce_classification (Twilio SendGrid's seven published values).
import type { MessageEvent } from "../../core/model.ts";
import { eventBounceClass } from "../../core/bounce/event-class.ts";
import { reportedReason } from "./reported.ts";
import { bounceCategory, type BounceCategory, type BounceClass } from "../../core/bounce/index.ts";

/** The event's class (core/bounce/event-class.ts). */
export const classOf = (e: MessageEvent): BounceClass => eventBounceClass(e);

export const categoryOf = (e: MessageEvent): BounceCategory => bounceCategory(classOf(e));

/** Mailgun: `reason` of a failure (postern's own reasons as reported.ts words them, else the bounce's category). */
export function mailgunReason(e: MessageEvent): string {
  const own = reportedReason(e);
  if (own) return own;
  const category = categoryOf(e);
  return category === "hard" ? "bounce" : category === "block" ? "espblock" : "generic";
}

/** Mailgun's delivery-status bounce-type: hard bounces are the ones that suppress. */
export const mailgunBounceType = (e: MessageEvent): "hard" | "soft" => (categoryOf(e) === "hard" ? "hard" : "soft");

const SENDGRID_CLASSIFICATION: Partial<Record<BounceClass, string>> = {
  10: "Invalid Address", 30: "Invalid Address", 22: "Mailbox Unavailable",
  50: "Reputation", 51: "Reputation", 52: "Content", 53: "Content", 54: "Technical Failure",
  20: "Technical Failure", 21: "Technical Failure", 23: "Technical Failure", 24: "Technical Failure", 40: "Technical Failure",
  70: "Frequency or Volume Too High",
};

/** SendGrid: `type` of a bounce event (bounce = hard, blocked = everything the receiver may accept later). */
export const sendgridBounceType = (e: MessageEvent): "bounce" | "blocked" => (categoryOf(e) === "hard" ? "bounce" : "blocked");

export const sendgridClassification = (e: MessageEvent): string => SENDGRID_CLASSIFICATION[classOf(e)] ?? "Unclassified";
