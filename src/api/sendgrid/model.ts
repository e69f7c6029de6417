// The SendGrid v3 wire model after checking (reader.ts fills it from the JSON body), its limits,
// and SendGrid's own error wording. Field names are camelCase here; the wire is snake_case.
import type { Address, TrackingFlags } from "../../core/model.ts";

export const MAX_PERSONALIZATIONS = 1000;
export const MAX_RECIPIENTS_TOTAL = 1000;
export const MAX_CATEGORIES = 10;
export const MAX_CATEGORY_CHARS = 64;
export const MAX_REPLY_TO_LIST = 1000;
export const MAX_ARGS_BYTES = 10_000;
export const MAX_GROUPS_TO_DISPLAY = 25;
export const MAX_SEND_AT_AHEAD_S = 72 * 3600;

export interface SgPersonalization {
  to: Address[];
  cc: Address[];
  bcc: Address[];
  from?: Address;
  subject?: string;
  headers: Record<string, string>;
  substitutions: Record<string, string>;
  dynamicTemplateData: Record<string, unknown>;
  customArgs: Record<string, string>;
  /** Unix seconds. */
  sendAt?: number;
}

export interface SgContent {
  type: string;
  value: string;
}

export interface SgAttachment {
  content: Uint8Array;
  filename: string;
  type?: string;
  disposition: "attachment" | "inline";
  contentId?: string;
}

export interface SgMailSettings {
  isSandbox: boolean;
  /** bypass_list_management: deliver even to suppressed addresses (SendGrid's emergency switch). */
  shouldBypassLists: boolean;
  footer?: { text?: string; html?: string };
  /** Legacy mail_settings.bcc: one address blind-copied on every personalization. */
  bcc?: Address;
}

/** A mail/send request whose shape and per-field rules have been checked. */
export interface SgMail {
  personalizations: SgPersonalization[];
  from: Address;
  replyTo: Address[];
  subject?: string;
  content: SgContent[];
  attachments: SgAttachment[];
  templateId?: string;
  sections: Record<string, string>;
  headers: Record<string, string>;
  categories: string[];
  customArgs: Record<string, string>;
  /** Top-level substitutions / dynamic_template_data (not sent by the SDK, which merges them itself). */
  substitutions: Record<string, string>;
  dynamicTemplateData: Record<string, unknown>;
  sendAt?: number;
  batchId?: string;
  asm?: { groupId: number; groupsToDisplay: number[] };
  ipPoolName?: string;
  mailSettings: SgMailSettings;
  tracking: TrackingFlags;
  /** tracking_settings.subscription_tracking when enabled: SendGrid's unsubscribe footer or tag. */
  subscription?: { text?: string; html?: string; tag?: string };
  callbackUrl?: string;
}

const HELP_BASE = "http://sendgrid.com/docs/API_Reference/Web_API_v3/Mail/errors.html#message.";

/** SendGrid's help link for a field: indexes and a trailing email/name dropped (`personalizations.to`). */
export function helpFor(field: string | null | undefined): string | null {
  if (!field) return null;
  const parts = field.split(".").filter((p) => !/^\d+$/.test(p));
  if (parts.length > 1 && (parts.at(-1) === "email" || parts.at(-1) === "name")) parts.pop();
  return HELP_BASE + parts.join(".");
}

/** SendGrid's wording where it is known; the rest follows its style. */
export const MSG = {
  body: "The request body must be a JSON object.",
  personalizations: "The personalizations field is required and must have at least one personalization.",
  tooManyPersonalizations: `The personalizations field cannot have more than ${MAX_PERSONALIZATIONS} personalizations.`,
  tooManyRecipients: `The total number of recipients (to, cc and bcc of every personalization) must be no more than ${MAX_RECIPIENTS_TOTAL}.`,
  personalization: "Each personalization must be an object.",
  to: "The to array is required for all personalization objects, and must have at least one email object with a valid email address.",
  list: (kind: string) => `The ${kind} field must be an array of email objects.`,
  addressObject: (kind: string) => `Each ${kind} must be an object with an email parameter.`,
  emailRequired: (kind: string) => `The ${kind} email parameter is required.`,
  emailInvalid: "Does not contain a valid address.",
  fromInvalid: "The from email does not contain a valid address.",
  replyToInvalid: "The reply_to email does not contain a valid address.",
  name: "The name must be a string on a single line.",
  duplicate: (email: string, field: string) =>
    `Each email address in the personalization block should be unique between to, cc, and bcc. We found the first duplicate instance of [${email}] in the ${field} field.`,
  from: "The from object must be provided for every email send. It is an object that requires the email parameter, but may also contain a name parameter.",
  personalizationFromDomain: "The from address of a personalization must use the same domain as the from address of the message.",
  replyToBoth: "The reply_to and reply_to_list fields cannot be used together; use one of them.",
  replyToList: `The reply_to_list field must be an array of at most ${MAX_REPLY_TO_LIST} unique email objects.`,
  subject: "The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.",
  subjectLine: "The subject must be a string on a single line.",
  content: "Unless a valid template_id is provided, the content parameter is required. There must be at least one defined content block. We typically suggest both text/plain and text/html blocks are included, but only one block is required.",
  contentType: "The content type must be a string at least one character in length.",
  contentValue: "The content value must be a string at least one character in length.",
  contentOrder: "If present, text/plain must be first, followed by text/html, followed by any other content types.",
  contentUnique: "Each content type may be given only once.",
  attachment: "Each attachment must be an object with content and filename.",
  attachmentContent: "The attachment content is required and must be base64 encoded.",
  attachmentFilename: "The attachment filename parameter is required and must be a single line.",
  attachmentType: "The attachment type must be a MIME type such as image/png.",
  disposition: "The disposition must be either inline or attachment.",
  contentId: "The content_id must be a string on a single line without < or >.",
  templateId: "The template_id must be the name of a stored template (letters, digits, '_', '-' and '.').",
  templateMissing: (id: string) => `The template_id must name a stored template; no template "${id}" was found.`,
  stringMap: (field: string) => `The ${field} field must be an object whose values are strings.`,
  argsTooLarge: (field: string) => `The ${field} must total less than ${MAX_ARGS_BYTES} bytes.`,
  object: (field: string) => `The ${field} field must be an object.`,
  categories: "The categories field must be an array of strings.",
  category: `A category must be a non-empty string of at most ${MAX_CATEGORY_CHARS} characters.`,
  tooManyCategories: `You cannot have more than ${MAX_CATEGORIES} categories associated with an email.`,
  sendAt: "The send_at parameter must be a UNIX timestamp (integer seconds) no more than 72 hours in the future.",
  batchId: "The batch_id must be a string.",
  asm: `The asm.group_id parameter is required and must be an integer; asm.groups_to_display holds at most ${MAX_GROUPS_TO_DISPLAY} integers.`,
  ipPool: "The ip_pool_name must be a string between 2 and 64 characters.",
  boolean: (field: string) => `The ${field} must be a boolean.`,
  string: (field: string) => `The ${field} must be a string.`,
  callbackUrl: "The callback_url must be an http or https URL.",
  reservedHeader: (name: string) => `The ${name} header is reserved and cannot be set in headers.`,
  renderedSubjectLine: "After substitutions the subject must still be a single line.",
  renderedBody: "The message has no content: give text/plain or text/html content, or a template with an html or txt part.",
  senderIdentity:
    "The from address does not match a verified Sender Identity. Mail cannot be sent until this error is resolved. Visit https://sendgrid.com/docs/for-developers/sending-email/sender-identity/ to see the Sender Identity requirements",
  accessForbidden: "access forbidden",
  tooLarge: "content too large",
  validationEmail: "The email field is required and must be a string.",
} as const;
