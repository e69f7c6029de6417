// SparkPost's bounce classes, exactly as its "Bounce Classification Codes" table publishes them
// (support.sparkpost.com/docs/deliverability/bounce-classification-codes): the one fine vocabulary
// every failure is classified into; hard / soft / block / admin / undetermined follows from it.

export type BounceCategory = "hard" | "soft" | "block" | "admin" | "undetermined";

export const BOUNCE_CLASSES = {
  1: { name: "Undetermined", description: "The response text could not be identified.", category: "undetermined" },
  10: { name: "Invalid Recipient", description: "The recipient is invalid.", category: "hard" },
  20: { name: "Soft Bounce", description: "The message soft bounced.", category: "soft" },
  21: { name: "DNS Failure", description: "The message bounced due to a DNS failure.", category: "soft" },
  22: { name: "Mailbox Full", description: "The message bounced due to the remote mailbox being over quota.", category: "soft" },
  23: { name: "Too Large", description: "The message bounced because it was too large for the recipient.", category: "soft" },
  24: { name: "Timeout", description: "The message timed out.", category: "soft" },
  25: { name: "Admin Failure", description: "The message was failed by SparkPost's configured policies.", category: "admin" },
  30: { name: "Generic Bounce: No RCPT", description: "No recipient could be determined for the message.", category: "hard" },
  40: { name: "Generic Bounce", description: "The message failed for unspecified reasons.", category: "soft" },
  50: { name: "Mail Block", description: "The message was blocked by the receiver.", category: "block" },
  51: { name: "Spam Block", description: "The message was blocked by the receiver as coming from a known spam source.", category: "block" },
  52: { name: "Spam Content", description: "The message was blocked by the receiver as spam.", category: "block" },
  53: { name: "Prohibited Attachment", description: "The message was blocked by the receiver because it contained an attachment.", category: "block" },
  54: { name: "Relaying Denied", description: "The message was blocked by the receiver because relaying is not allowed.", category: "block" },
  60: { name: "Auto-Reply", description: "The message is an auto-reply/vacation mail.", category: "soft" },
  70: { name: "Transient Failure", description: "Message transmission has been temporarily delayed.", category: "soft" },
  80: { name: "Subscribe", description: "The message is a subscribe request.", category: "admin" },
  90: { name: "Unsubscribe", description: "The message is an unsubscribe request.", category: "hard" },
  100: { name: "Challenge-Response", description: "The message is a challenge-response probe.", category: "soft" },
} as const satisfies Record<number, { name: string; description: string; category: BounceCategory }>;

export type BounceClass = keyof typeof BOUNCE_CLASSES;

export const isBounceClass = (n: unknown): n is BounceClass => typeof n === "number" && n in BOUNCE_CLASSES;

export function bounceCategory(cls: BounceClass): BounceCategory {
  return BOUNCE_CLASSES[cls].category;
}
