// The wire shape of `POST /transmissions`, checked by hand because SparkPost is lenient where a
// schema would not be (address as string or object, from as string or object, unknown fields
// ignored) and strict per recipient (a bad recipient is reported in rcpt_to_errors, not fatal).
import { checkSyntax, parseAddress } from "../../core/address/address.ts";
import { hasLineBreak } from "../../core/headers.ts";
import { badFormat, missingField, spError } from "./errors.ts";
import { isObject } from "../wire.ts";

export type Json = Record<string, unknown>;

export interface TxAddress { email: string; name?: string; headerTo?: string }

export interface TxRecipient {
  /** Position in the request's `recipients`, for error paths. */
  index: number;
  address: TxAddress;
  tags: string[];
  metadata: Json;
  substitutionData: Json;
}

export interface RcptError { message: string; code: string; description: string; [extra: string]: unknown }

export interface TxFile { name: string; type: string; data: string }

/** Inline content before substitution: every string may still hold `{{ }}`. */
export interface TxInline {
  from: { email: string; name?: string };
  subject: string;
  text?: string;
  html?: string;
  amp?: string;
  replyTo?: string;
  headers: Record<string, string>;
  attachments: TxFile[];
  inlineImages: TxFile[];
}

export type TxContent =
  | { kind: "inline"; inline: TxInline }
  | { kind: "template"; templateId: string; useDraft: boolean; from?: TxInline["from"]; replyTo?: string; headers: Record<string, string> }
  | { kind: "raw"; raw: string };

export interface TxOptions {
  openTracking?: boolean;
  clickTracking?: boolean;
  transactional?: boolean;
  sandbox?: boolean;
  skipSuppression?: boolean;
  /** Accepted for compatibility; postern sends the HTML as given (no CSS inlining). */
  inlineCss?: boolean;
  ipPool?: string;
  /** Absolute ms, or undefined for "now". */
  startTime?: number;
  performSubstitutions: boolean;
}

export interface Transmission {
  recipients: TxRecipient[];
  rcptErrors: RcptError[];
  content: TxContent;
  options: TxOptions;
  campaignId?: string;
  description?: string;
  returnPath?: string;
  metadata: Json;
  substitutionData: Json;
}

const MAX_START_AHEAD_MS = 31 * 86_400_000;


function optString(obj: Json, key: string, path: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw badFormat(`${path}${key} must be a string`);
  return v;
}

function optBool(obj: Json, key: string): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  throw badFormat(`options.${key} must be a boolean`);
}

function optObject(obj: Json, key: string, path: string): Json {
  const v = obj[key];
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw badFormat(`${path}${key} must be an object`);
  return v;
}

/** `from`: "x@y", "Name <x@y>" or {email, name}; substitution syntax is left for later. */
export function readFrom(v: unknown, path: string): { email: string; name?: string } {
  if (typeof v === "string") {
    if (v.includes("{{")) return { email: v };
    const parsed = parseAddress(v, { shouldCheckSyntax: false });
    if (!parsed) throw badFormat(`${path} is not a valid email address`);
    return { email: parsed.email, ...(parsed.name ? { name: parsed.name } : {}) };
  }
  if (isObject(v) && typeof v.email === "string") return { email: v.email, ...(typeof v.name === "string" ? { name: v.name } : {}) };
  if (isObject(v)) throw missingField(`${path}.email is required`);
  throw missingField(`${path} is required`);
}

function readHeaders(content: Json): Record<string, string> {
  const headers = optObject(content, "headers", "content.");
  for (const [k, v] of Object.entries(headers)) if (typeof v !== "string") throw badFormat(`content.headers.${k} must be a string`);
  return headers as Record<string, string>;
}

function readFiles(content: Json, key: string): TxFile[] {
  const v = content[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badFormat(`content.${key} must be an array`);
  return v.map((f, i) => {
    const path = `content.${key}[${i}]`;
    if (!isObject(f)) throw badFormat(`${path} must be an object`);
    for (const field of ["name", "type", "data"]) if (typeof f[field] !== "string" || !f[field]) throw missingField(`${path}.${field} is required`);
    if (!/^[A-Za-z0-9+/=\s]*$/.test(f.data as string)) throw badFormat(`${path}.data must be base64`);
    return { name: f.name as string, type: f.type as string, data: f.data as string };
  });
}

function readContent(v: unknown): TxContent {
  if (!isObject(v)) throw missingField("content object or template_id required");
  if (typeof v.email_rfc822 === "string") {
    if (["html", "text", "subject", "template_id", "amp_html"].some((k) => v[k] !== undefined)) {
      throw badFormat("content.email_rfc822 cannot be combined with other content fields");
    }
    return { kind: "raw", raw: v.email_rfc822 };
  }
  if (v.ab_test_id !== undefined) throw spError(422, "1603", "Subresource not found", "A/B tests are not supported by postern");
  if (v.template_id !== undefined) {
    if (typeof v.template_id !== "string" || !v.template_id) throw badFormat("content.template_id must be a string");
    return { kind: "template", templateId: v.template_id, useDraft: v.use_draft_template === true, from: v.from === undefined ? undefined : readFrom(v.from, "content.from"),
      replyTo: optString(v, "reply_to", "content."), headers: readHeaders(v) };
  }
  const inline: TxInline = {
    from: readFrom(v.from, "content.from"),
    subject: optString(v, "subject", "content.") ?? "",
    text: optString(v, "text", "content."), html: optString(v, "html", "content."), amp: optString(v, "amp_html", "content."),
    replyTo: optString(v, "reply_to", "content."), headers: readHeaders(v),
    attachments: readFiles(v, "attachments"), inlineImages: readFiles(v, "inline_images"),
  };
  if (v.subject === undefined) throw missingField("content.subject is required");
  if (inline.text === undefined && inline.html === undefined && inline.amp === undefined) {
    throw missingField("At least one of text or html needs to exist in content");
  }
  return { kind: "inline", inline };
}

/** One recipient, or the rcpt_to_error SparkPost reports for it. */
export function readRecipient(v: unknown, index: number): TxRecipient | RcptError {
  const err = (code: string, message: string, description: string): RcptError => ({ message, code, description });
  if (!isObject(v)) return err("1300", "invalid data format/type", `recipients[${index}] must be an object`);
  let address: TxAddress;
  const a = v.address;
  if (typeof a === "string") {
    const parsed = parseAddress(a, { shouldCheckSyntax: false });
    if (!parsed) return err("1300", "invalid data format/type", `Invalid email address: ${a}`);
    address = { email: parsed.email, ...(parsed.name ? { name: parsed.name } : {}) };
  } else if (isObject(a) && typeof a.email === "string" && a.email.trim()) {
    address = { email: a.email.trim(), ...(typeof a.name === "string" && a.name.trim() ? { name: a.name.trim() } : {}),
      ...(typeof a.header_to === "string" && a.header_to.trim() ? { headerTo: a.header_to } : {}) };
  } else return err("1400", "required field is missing", "address.email is required for each recipient");
  // Checked here so one bad address is reported for its recipient instead of failing the send.
  if (checkSyntax(address.email).length) return err("1300", "invalid data format/type", `Invalid email address: ${address.email}`);
  if (hasLineBreak(address.name) || hasLineBreak(address.headerTo)) return err("1300", "invalid data format/type", `recipients[${index}].address must not contain line breaks`);
  const tags = v.tags === undefined || v.tags === null ? [] : v.tags;
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === "string")) return err("1300", "invalid data format/type", `recipients[${index}].tags must be an array of strings`);
  const metadata = v.metadata ?? {};
  const subs = v.substitution_data ?? {};
  if (!isObject(metadata) || !isObject(subs)) return err("1300", "invalid data format/type", `recipients[${index}].metadata and substitution_data must be objects`);
  return { index, address, tags, metadata, substitutionData: subs };
}

function readStartTime(v: unknown, now: number): number | undefined {
  if (v === undefined || v === null || v === "now") return undefined;
  const at = typeof v === "string" ? Date.parse(v) : NaN;
  if (Number.isNaN(at)) throw badFormat("options.start_time must look like YYYY-MM-DDTHH:MM:SS+HH:MM or be \"now\"");
  if (at > now + MAX_START_AHEAD_MS) throw badFormat("options.start_time may be at most 31 days ahead");
  return at > now ? at : undefined;
}

function readOptions(body: Json, now: number): TxOptions {
  const o = optObject(body, "options", "");
  const ipPool = optString(o, "ip_pool", "options.");
  return {
    openTracking: optBool(o, "open_tracking"), clickTracking: optBool(o, "click_tracking"), transactional: optBool(o, "transactional"),
    sandbox: optBool(o, "sandbox"), skipSuppression: optBool(o, "skip_suppression"), inlineCss: optBool(o, "inline_css"),
    ...(ipPool ? { ipPool } : {}), startTime: readStartTime(o.start_time, now), performSubstitutions: optBool(o, "perform_substitutions") ?? true,
  };
}

export const isRecipient = (r: TxRecipient | RcptError): r is TxRecipient => "index" in r && "address" in r;

/** Checks a transmission body; structural problems throw (422), bad recipients are collected. */
export function readTransmission(body: unknown, now: number): Transmission {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  if (body.recipients === undefined || body.recipients === null) throw missingField("recipients is required");
  if (isObject(body.recipients)) {
    throw missingField("recipients.list_id is required (or give recipients as an array)");
  }
  if (!Array.isArray(body.recipients)) throw badFormat("recipients must be an array");
  const content = readContent(body.content);
  const recipients: TxRecipient[] = [];
  const rcptErrors: RcptError[] = [];
  body.recipients.forEach((r, i) => {
    const read = readRecipient(r, i);
    if (isRecipient(read)) recipients.push(read);
    else rcptErrors.push(read);
  });
  const campaignId = optString(body, "campaign_id", "");
  if (campaignId && Buffer.byteLength(campaignId) > 64) throw badFormat("campaign_id may be at most 64 bytes");
  return {
    recipients, rcptErrors, content, options: readOptions(body, now), campaignId, description: optString(body, "description", ""),
    returnPath: optString(body, "return_path", ""), metadata: optObject(body, "metadata", ""), substitutionData: optObject(body, "substitution_data", ""),
  };
}
