// Reads a POST /v3/mail/send body into an SgMail, checking the shape and every per-field rule of
// SendGrid's error table in one pass so that a 400 lists all problems with dotted paths.
// Sender identity (403) and what only rendering can tell (templates, substitutions) come later.
import type { Address } from "../../core/model.ts";
import type { Issue } from "../../core/errors.ts";
import { hasLineBreak } from "../../core/headers.ts";
import {
  emailDomain, isAbsent, isObject, readAddress, readAddressList, readBoundedMap, readObject, readSendAt, readString,
  readStringMap, type Json,
} from "./fields.ts";
import { readAsm, readAttachments, readCategories, readContent, readHeaders, readMailSettings, readTracking, readSubscription } from "./parts.ts";
import { isValidTemplateName } from "../../core/templates.ts";
import {
  MAX_PERSONALIZATIONS, MAX_RECIPIENTS_TOTAL, MAX_REPLY_TO_LIST, MAX_SEND_AT_AHEAD_S, MSG, type SgMail, type SgPersonalization,
} from "./model.ts";

interface ReadContext {
  issues: Issue[];
  nowS: number;
  /** Domain of the top-level from, when it is valid: personalization froms must share it. */
  fromDomain?: string;
}

/** Checks `body` and returns the request with every issue found (empty when it may proceed). */
export function readMailSend(body: unknown, nowMs: number): { mail: SgMail; issues: Issue[] } {
  const issues: Issue[] = [];
  if (!isObject(body)) issues.push({ message: MSG.body });
  const b: Json = isObject(body) ? body : {};
  const from = readAddress(b.from, "from", "from", issues);
  const ctx: ReadContext = { issues, nowS: Math.floor(nowMs / 1000), fromDomain: from && emailDomain(from.email) };
  const templateId = readTemplateId(b.template_id, issues);
  const personalizations = readPersonalizations(b.personalizations, ctx);
  const subject = readSubject(b.subject, "subject", issues);
  // Judged on the raw values: a subject that is present but malformed has its own issue already.
  const isMissing = (v: unknown) => isAbsent(v) || v === "";
  const somePersonalizationLacks = (Array.isArray(b.personalizations) ? b.personalizations : []).some((p) => !isObject(p) || isMissing(p.subject));
  if (isMissing(b.subject) && templateId === undefined && somePersonalizationLacks) {
    issues.push({ field: "subject", message: MSG.subject });
  }
  const mail: SgMail = {
    personalizations, from: from ?? { email: "" }, replyTo: readReplyTo(b, issues), subject,
    content: readContent(b.content, issues, templateId === undefined), attachments: readAttachments(b.attachments, issues), templateId,
    sections: readStringMap(b.sections, "sections", issues), headers: readHeaders(b.headers, "headers", issues),
    categories: readCategories(b.categories, issues), customArgs: readBoundedMap(b.custom_args, "custom_args", issues),
    substitutions: readStringMap(b.substitutions, "substitutions", issues),
    dynamicTemplateData: readObject(b.dynamic_template_data, "dynamic_template_data", issues),
    sendAt: readSendAt(b.send_at, "send_at", ctx.nowS, MAX_SEND_AT_AHEAD_S, issues),
    batchId: readString(b.batch_id, "batch_id", issues, MSG.batchId), asm: readAsm(b.asm, issues),
    ipPoolName: readIpPool(b.ip_pool_name, issues), mailSettings: readMailSettings(b.mail_settings, issues),
    tracking: readTracking(b.tracking_settings, issues), subscription: readSubscription(b.tracking_settings, issues), callbackUrl: readCallbackUrl(b.callback_url, issues),
  };
  // A body that is not an object has no fields to blame: say only that.
  return { mail, issues: isObject(body) ? issues : issues.slice(0, 1) };
}

function readPersonalizations(value: unknown, ctx: ReadContext): SgPersonalization[] {
  const { issues } = ctx;
  if (!Array.isArray(value) || value.length === 0) {
    issues.push({ field: "personalizations", message: MSG.personalizations });
    return [];
  }
  if (value.length > MAX_PERSONALIZATIONS) {
    issues.push({ field: "personalizations", message: MSG.tooManyPersonalizations });
    return [];
  }
  const out = value.map((p, i) => readPersonalization(p, `personalizations.${i}`, ctx));
  const total = out.reduce((n, p) => n + p.to.length + p.cc.length + p.bcc.length, 0);
  if (total > MAX_RECIPIENTS_TOTAL) issues.push({ field: "personalizations", message: MSG.tooManyRecipients });
  return out;
}

function readPersonalization(value: unknown, path: string, ctx: ReadContext): SgPersonalization {
  const { issues } = ctx;
  const p: Json = isObject(value) ? value : {};
  if (!isObject(value)) issues.push({ field: path, message: MSG.personalization });
  else if (!Array.isArray(p.to) || p.to.length === 0) issues.push({ field: `${path}.to`, message: MSG.to });
  const out: SgPersonalization = {
    to: readAddressList(p.to, `${path}.to`, "to", issues), cc: readAddressList(p.cc, `${path}.cc`, "cc", issues),
    bcc: readAddressList(p.bcc, `${path}.bcc`, "bcc", issues), subject: readSubject(p.subject, `${path}.subject`, issues),
    headers: readHeaders(p.headers, `${path}.headers`, issues),
    substitutions: readBoundedMap(p.substitutions, `${path}.substitutions`, issues),
    dynamicTemplateData: readObject(p.dynamic_template_data, `${path}.dynamic_template_data`, issues),
    customArgs: readBoundedMap(p.custom_args, `${path}.custom_args`, issues),
    sendAt: readSendAt(p.send_at, `${path}.send_at`, ctx.nowS, MAX_SEND_AT_AHEAD_S, issues),
  };
  if (!isAbsent(p.from)) {
    out.from = readAddress(p.from, `${path}.from`, "from", issues);
    if (out.from && ctx.fromDomain && emailDomain(out.from.email) !== ctx.fromDomain) {
      issues.push({ field: `${path}.from.email`, message: MSG.personalizationFromDomain });
    }
  }
  findDuplicate(out, path, issues);
  return out;
}

/** SendGrid refuses an address listed twice in one personalization (across to, cc and bcc). */
function findDuplicate(p: SgPersonalization, path: string, issues: Issue[]) {
  const seen = new Set<string>();
  for (const kind of ["to", "cc", "bcc"] as const) {
    for (const [j, a] of p[kind].entries()) {
      const key = a.email.toLowerCase();
      if (seen.has(key)) {
        issues.push({ field: `${path}.${kind}.${j}.email`, message: MSG.duplicate(a.email, `${path}.${kind}`) });
        return;
      }
      seen.add(key);
    }
  }
}

function readSubject(value: unknown, field: string, issues: Issue[]): string | undefined {
  if (isAbsent(value) || value === "") return undefined;
  if (typeof value !== "string" || hasLineBreak(value)) {
    issues.push({ field, message: MSG.subjectLine });
    return undefined;
  }
  return value;
}

function readReplyTo(b: Json, issues: Issue[]): Address[] {
  const single = isAbsent(b.reply_to) ? undefined : readAddress(b.reply_to, "reply_to", "reply_to", issues);
  if (isAbsent(b.reply_to_list)) return single ? [single] : [];
  if (!isAbsent(b.reply_to)) {
    issues.push({ field: "reply_to_list", message: MSG.replyToBoth });
    return [];
  }
  const list = readAddressList(b.reply_to_list, "reply_to_list", "reply_to", issues);
  const unique = new Set(list.map((a) => a.email.toLowerCase()));
  if (list.length > MAX_REPLY_TO_LIST || unique.size !== list.length) issues.push({ field: "reply_to_list", message: MSG.replyToList });
  return list;
}

function readTemplateId(value: unknown, issues: Issue[]): string | undefined {
  if (isAbsent(value) || value === "") return undefined;
  if (!isValidTemplateName(value)) {
    issues.push({ field: "template_id", message: MSG.templateId });
    return undefined;
  }
  return value;
}

function readIpPool(value: unknown, issues: Issue[]): string | undefined {
  const pool = readString(value, "ip_pool_name", issues, MSG.ipPool);
  if (pool !== undefined && (pool.length < 2 || pool.length > 64 || /[\x00-\x1f\x7f]/.test(pool))) {
    issues.push({ field: "ip_pool_name", message: MSG.ipPool });
    return undefined;
  }
  return pool;
}

function readCallbackUrl(value: unknown, issues: Issue[]): string | undefined {
  const url = readString(value, "callback_url", issues, MSG.callbackUrl);
  if (url === undefined) return undefined;
  if (!/^https?:\/\/[^\s]+$/i.test(url) || !URL.canParse(url)) {
    issues.push({ field: "callback_url", message: MSG.callbackUrl });
    return undefined;
  }
  return url;
}
