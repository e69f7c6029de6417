// Readers for the non-address blocks of a mail/send request: content, attachments, headers,
// categories, asm, mail_settings and tracking_settings. Same contract as fields.ts: every problem
// becomes an Issue with its dotted path.
import type { Issue } from "../../core/errors.ts";
import type { TrackingFlags } from "../../core/model.ts";
import { checkHeaders, hasLineBreak } from "../../core/headers.ts";
import { isAbsent, isObject, readAddress, readBoolean, readString, readStringMap, type Json } from "./fields.ts";
import { MAX_CATEGORIES, MAX_CATEGORY_CHARS, MAX_GROUPS_TO_DISPLAY, MSG, type SgAttachment, type SgContent, type SgMailSettings } from "./model.ts";

const MIME_TYPE_RE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;[^\r\n]*)?$/i;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
// SendGrid refuses these on top of the headers postern itself owns (core/headers.ts).
const SENDGRID_RESERVED = new Set(["reply-to", "x-sg-id", "x-sg-eid"]);
const TYPE_RANK: Record<string, number> = { "text/plain": 0, "text/html": 1 };

/** The MIME type without parameters, lower-cased: `text/calendar; method=REQUEST` → `text/calendar`. */
export const baseType = (type: string) => type.split(";")[0]!.trim().toLowerCase();

/** content[]: {type, value} items, text/plain first, then text/html, then anything else; types unique. */
export function readContent(value: unknown, issues: Issue[], isRequired: boolean): SgContent[] {
  if (isAbsent(value) || (Array.isArray(value) && value.length === 0)) {
    if (isRequired) issues.push({ field: "content", message: MSG.content });
    return [];
  }
  if (!Array.isArray(value)) {
    issues.push({ field: "content", message: MSG.content });
    return [];
  }
  const out: SgContent[] = [];
  const seen = new Set<string>();
  let lastRank = -1;
  value.forEach((item, i) => {
    const field = `content.${i}`;
    if (!isObject(item)) return issues.push({ field, message: MSG.content });
    const { type, value: text } = item;
    if (typeof type !== "string" || !MIME_TYPE_RE.test(type.trim())) issues.push({ field: `${field}.type`, message: MSG.contentType });
    if (typeof text !== "string" || text.length === 0) issues.push({ field: `${field}.value`, message: MSG.contentValue });
    if (typeof type !== "string" || typeof text !== "string" || !MIME_TYPE_RE.test(type.trim()) || !text) return;
    const base = baseType(type);
    if (seen.has(base)) return issues.push({ field: `${field}.type`, message: MSG.contentUnique });
    seen.add(base);
    const rank = TYPE_RANK[base] ?? 2;
    if (rank < lastRank) issues.push({ field: `${field}.type`, message: MSG.contentOrder });
    lastRank = Math.max(lastRank, rank);
    out.push({ type: type.trim(), value: text });
  });
  return out;
}

/** attachments[]: base64 content, filename, optional type/disposition and content_id (or the SDK's contentId). */
export function readAttachments(value: unknown, issues: Issue[]): SgAttachment[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    issues.push({ field: "attachments", message: MSG.attachment });
    return [];
  }
  const out: SgAttachment[] = [];
  value.forEach((item, i) => {
    const a = readAttachment(item, `attachments.${i}`, issues);
    if (a) out.push(a);
  });
  return out;
}

function readAttachment(item: unknown, field: string, issues: Issue[]): SgAttachment | undefined {
  if (!isObject(item)) {
    issues.push({ field, message: MSG.attachment });
    return undefined;
  }
  const before = issues.length;
  const content = decodeBase64(item.content);
  if (!content) issues.push({ field: `${field}.content`, message: MSG.attachmentContent });
  const { filename, type, disposition } = item;
  if (typeof filename !== "string" || !filename.trim() || /[\x00-\x1f\x7f]/.test(filename)) {
    issues.push({ field: `${field}.filename`, message: MSG.attachmentFilename });
  }
  if (!isAbsent(type) && (typeof type !== "string" || !MIME_TYPE_RE.test(type.trim()))) issues.push({ field: `${field}.type`, message: MSG.attachmentType });
  if (!isAbsent(disposition) && disposition !== "inline" && disposition !== "attachment") {
    issues.push({ field: `${field}.disposition`, message: MSG.disposition });
  }
  // @sendgrid/mail never converts keys inside arrays, so its users' contentId arrives as is.
  const [cidKey, cid] = !isAbsent(item.content_id) ? ["content_id", item.content_id] : ["contentId", item.contentId];
  if (!isAbsent(cid) && (typeof cid !== "string" || !cid.trim() || /[\x00-\x1f\x7f<>]/.test(cid))) {
    issues.push({ field: `${field}.${cidKey}`, message: MSG.contentId });
  }
  if (issues.length > before) return undefined;
  const out: SgAttachment = { content: content!, filename: (filename as string).trim(), disposition: disposition === "inline" ? "inline" : "attachment" };
  if (typeof type === "string" && type.trim()) out.type = type.trim();
  if (typeof cid === "string") out.contentId = cid.trim();
  return out;
}

function decodeBase64(value: unknown): Uint8Array | undefined {
  if (typeof value !== "string") return undefined;
  // MIME-style line breaks inside the base64 text are tolerated.
  const text = value.replace(/\s+/g, "");
  if (!text || !BASE64_RE.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, "base64");
  return bytes.length ? new Uint8Array(bytes) : undefined;
}

/** headers: string values, single lines, none of the headers postern or SendGrid reserve. */
export function readHeaders(value: unknown, field: string, issues: Issue[]): Record<string, string> {
  if (isAbsent(value)) return {};
  if (!isObject(value)) {
    issues.push({ field, message: MSG.object("headers") });
    return {};
  }
  const before = issues.length;
  issues.push(...checkHeaders(value as Record<string, string>, field));
  for (const name of Object.keys(value)) {
    if (SENDGRID_RESERVED.has(name.toLowerCase())) issues.push({ field: `${field}.${name}`, message: MSG.reservedHeader(name) });
  }
  return issues.length > before ? {} : readStringMap(value, field, issues);
}

/** categories: at most 10 non-empty strings of at most 64 characters; duplicates are dropped. */
export function readCategories(value: unknown, issues: Issue[]): string[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    issues.push({ field: "categories", message: MSG.categories });
    return [];
  }
  const out = new Set<string>();
  value.forEach((c, i) => {
    if (typeof c !== "string" || !c.trim() || [...c].length > MAX_CATEGORY_CHARS || /[\x00-\x1f\x7f]/.test(c)) {
      issues.push({ field: `categories.${i}`, message: MSG.category });
    } else out.add(c);
  });
  if (out.size > MAX_CATEGORIES) issues.push({ field: "categories", message: MSG.tooManyCategories });
  return [...out];
}

/** asm: {group_id: integer, groups_to_display?: integer[] (≤ 25)}. */
export function readAsm(value: unknown, issues: Issue[]): { groupId: number; groupsToDisplay: number[] } | undefined {
  if (isAbsent(value)) return undefined;
  const groups = isObject(value) ? value.groups_to_display ?? [] : [];
  const isValid = isObject(value) && Number.isInteger(value.group_id) && Array.isArray(groups)
    && groups.length <= MAX_GROUPS_TO_DISPLAY && groups.every((g) => Number.isInteger(g));
  if (!isValid) {
    issues.push({ field: "asm.group_id", message: MSG.asm });
    return undefined;
  }
  return { groupId: (value as Json).group_id as number, groupsToDisplay: groups as number[] };
}

/** Sub-setting `{enable, ...}` of mail_settings / tracking_settings: an object whose enable is a boolean. */
function readSetting(parent: Json, key: string, field: string, issues: Issue[]): (Json & { enable?: boolean }) | undefined {
  const value = parent[key];
  if (isAbsent(value)) return undefined;
  if (!isObject(value)) {
    issues.push({ field: `${field}.${key}`, message: MSG.object(`${field}.${key}`) });
    return undefined;
  }
  const enable = readBoolean(value.enable, `${field}.${key}.enable`, issues);
  return { ...value, enable };
}

/** mail_settings: sandbox_mode, bypass_list_management, footer and legacy bcc act; the rest is accepted. */
export function readMailSettings(value: unknown, issues: Issue[]): SgMailSettings {
  const out: SgMailSettings = { isSandbox: false, shouldBypassLists: false };
  if (isAbsent(value)) return out;
  if (!isObject(value)) {
    issues.push({ field: "mail_settings", message: MSG.object("mail_settings") });
    return out;
  }
  const f = "mail_settings";
  out.isSandbox = readSetting(value, "sandbox_mode", f, issues)?.enable === true;
  out.shouldBypassLists = readSetting(value, "bypass_list_management", f, issues)?.enable === true;
  for (const key of ["bypass_spam_management", "bypass_bounce_management", "bypass_unsubscribe_management", "spam_check"]) {
    readSetting(value, key, f, issues);
  }
  const footer = readSetting(value, "footer", f, issues);
  if (footer?.enable) {
    out.footer = { text: readString(footer.text, `${f}.footer.text`, issues), html: readString(footer.html, `${f}.footer.html`, issues) };
  }
  const bcc = readSetting(value, "bcc", f, issues);
  if (bcc?.enable) out.bcc = readAddress({ email: bcc.email }, `${f}.bcc`, "bcc", issues);
  return out;
}

/** tracking_settings.subscription_tracking's footer text, html and substitution_tag. */
export function readSubscription(value: unknown, issues: Issue[]): { text?: string; html?: string; tag?: string } | undefined {
  if (!isObject(value)) return undefined;
  const f = "tracking_settings.subscription_tracking";
  // readTracking reports a malformed setting; here only an enabled one matters.
  const sub = value.subscription_tracking;
  if (!isObject(sub) || sub.enable !== true) return undefined;
  const out = { text: readString(sub.text, `${f}.text`, issues), html: readString(sub.html, `${f}.html`, issues),
    tag: readString(sub.substitution_tag, `${f}.substitution_tag`, issues) };
  if (out.tag !== undefined && (hasLineBreak(out.tag) || !out.tag)) issues.push({ field: `${f}.substitution_tag`, message: MSG.string(`${f}.substitution_tag`) });
  return out;
}

/** tracking_settings → TrackingFlags; an absent enable leaves the domain default in force. */
export function readTracking(value: unknown, issues: Issue[]): TrackingFlags {
  if (isAbsent(value)) return {};
  if (!isObject(value)) {
    issues.push({ field: "tracking_settings", message: MSG.object("tracking_settings") });
    return {};
  }
  const f = "tracking_settings";
  const click = readSetting(value, "click_tracking", f, issues);
  const clickText = readBoolean(click?.enable_text, `${f}.click_tracking.enable_text`, issues);
  const open = readSetting(value, "open_tracking", f, issues);
  const openTag = readString(open?.substitution_tag, `${f}.open_tracking.substitution_tag`, issues);
  if (openTag !== undefined && hasLineBreak(openTag)) issues.push({ field: `${f}.open_tracking.substitution_tag`, message: MSG.string(`${f}.open_tracking.substitution_tag`) });
  const sub = readSetting(value, "subscription_tracking", f, issues);
  readSetting(value, "ganalytics", f, issues);
  const out: TrackingFlags = {};
  if (click?.enable !== undefined) out.clicks = click.enable;
  if (clickText !== undefined) out.clickText = clickText;
  if (open?.enable !== undefined) out.opens = open.enable;
  if (openTag) out.openTag = openTag;
  if (sub?.enable !== undefined) out.unsubscribe = sub.enable;
  return out;
}
