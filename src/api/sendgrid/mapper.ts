// SendGrid wire ⇄ core: a checked SgMail → SendRequest (one envelope per personalization), and a
// ValidationResult → SendGrid's email validation result.
import type { Address, Attachment, SendEnvelope, SendRequest } from "../../core/model.ts";
import type { Issue } from "../../core/errors.ts";
import type { TemplateRenderer } from "./template-source.ts";
import { PREFERENCES_PLACEHOLDER, UNSUBSCRIBE_PLACEHOLDER } from "../../tracking/rewrite.ts";
import type { ValidationResult } from "../../validation/result.ts";
import { MAX_ARGS_BYTES, MSG, type SgMail, type SgPersonalization } from "./model.ts";
import { baseType } from "./parts.ts";
import { renderPersonalization } from "./render.ts";

const BODY_TYPES = new Set(["text/plain", "text/html", "text/x-amp-html"]);
const EXTENSIONS: Record<string, string> = { "text/calendar": "ics", "text/csv": "csv", "text/xml": "xml", "application/json": "json" };

/** Builds the SendRequest for `domain`; rendering problems come back as issues (nothing thrown for them). */
export async function toSendRequest(mail: SgMail, domain: string, templates: TemplateRenderer): Promise<{ req: SendRequest; issues: Issue[] }> {
  const issues: Issue[] = [];
  const envelopes: SendEnvelope[] = [];
  for (let i = 0; i < mail.personalizations.length; i++) {
    const content = await renderPersonalization(mail, i, templates, issues);
    if (content) envelopes.push(toEnvelope(mail, i, content));
    // A missing or broken template fails the same way for every personalization: say it once.
    if (issues.some((x) => x.field === "template_id")) break;
  }
  const req: SendRequest = {
    domain, from: mail.from, envelopes, source: "sendgrid",
    attachments: [...mail.attachments.map(toAttachment), ...extraContent(mail)],
    tags: mail.categories, tracking: withAsm(mail, withUnsubscribeTag(mail, envelopes)),
  };
  if (mail.replyTo.length) req.replyTo = mail.replyTo;
  if (mail.ipPoolName) req.ipPool = mail.ipPoolName;
  // Kept with the send for reporting: SendGrid reports batch_id and asm_group_id in its events.
  if (mail.batchId) req.batchId = mail.batchId;
  if (mail.asm) req.asmGroupId = mail.asm.groupId;
  if (mail.templateId) req.templateId = mail.templateId;
  if (mail.callbackUrl) req.callbackUrl = mail.callbackUrl;
  if (mail.mailSettings.shouldBypassLists) req.skipSuppression = true;
  return { req, issues: dedupe(issues) };
}

function toEnvelope(mail: SgMail, i: number, c: Awaited<ReturnType<typeof renderPersonalization>> & object): SendEnvelope {
  const p = mail.personalizations[i]!;
  const e: SendEnvelope = { to: p.to, subject: c.subject, path: `personalizations.${i}`, metadata: { ...mail.customArgs, ...p.customArgs } };
  if (p.cc.length) e.cc = p.cc;
  const bcc = withSettingsBcc(p, mail.mailSettings.bcc);
  if (bcc.length) e.bcc = bcc;
  if (p.from) e.from = p.from;
  if (c.text !== undefined) e.text = c.text;
  if (c.html !== undefined) e.html = c.html;
  if (c.amp !== undefined) e.amp = c.amp;
  if (Object.keys(c.headers).length) e.headers = c.headers;
  const sendAt = p.sendAt ?? mail.sendAt;
  if (sendAt !== undefined) e.sendAt = sendAt * 1000;
  return e;
}

/** A template's {{{unsubscribe}}} / {{{unsubscribe_preferences}}} link needs the per-recipient link filled in. */
function withUnsubscribeTag(mail: SgMail, envelopes: SendEnvelope[]): SgMail["tracking"] {
  const has = (v?: string) => Boolean(v?.includes(UNSUBSCRIBE_PLACEHOLDER) || v?.includes(PREFERENCES_PLACEHOLDER));
  const tagged = envelopes.some((e) => has(e.html) || has(e.text));
  return tagged && mail.tracking?.unsubscribe === undefined ? { ...mail.tracking, unsubscribe: true } : mail.tracking;
}

/**
 * Mail of an unsubscribe group carries unsubscribe links (List-Unsubscribe and the <%asm_…%> tags)
 * that leave the group; its preferences link offers groups_to_display (else the group itself).
 */
function withAsm(mail: SgMail, tracking: SgMail["tracking"]): SgMail["tracking"] {
  if (!mail.asm) return tracking;
  const groups = mail.asm.groupsToDisplay.length ? mail.asm.groupsToDisplay : [mail.asm.groupId];
  return { ...tracking, unsubscribe: true, groups };
}

/** Legacy mail_settings.bcc: blind-copied on every personalization that does not list it already. */
function withSettingsBcc(p: SgPersonalization, extra: Address | undefined): Address[] {
  if (!extra) return p.bcc;
  const listed = [...p.to, ...p.cc, ...p.bcc].some((a) => a.email.toLowerCase() === extra.email.toLowerCase());
  return listed ? p.bcc : [...p.bcc, extra];
}

const toAttachment = (a: SgMail["attachments"][number]): Attachment => ({
  filename: a.filename, content: a.content, disposition: a.disposition,
  // Empty: the composer detects the type from the file name, as SendGrid does.
  contentType: a.type ?? "",
  ...(a.contentId ? { contentId: a.contentId } : {}),
});

/** Content blocks beyond text/html/AMP (e.g. text/calendar invitations) travel as attachments. */
function extraContent(mail: SgMail): Attachment[] {
  return mail.content.filter((c) => !BODY_TYPES.has(baseType(c.type))).map((c, i) => {
    const type = baseType(c.type);
    const ext = EXTENSIONS[type] ?? (type.startsWith("text/") ? "txt" : "bin");
    return { filename: type === "text/calendar" ? "invite.ics" : `content-${i + 1}.${ext}`, contentType: c.type,
      content: new TextEncoder().encode(c.value), disposition: "attachment" };
  });
}

/** Issues that only the merged request shows: custom_args over the size limit. */
export function checkMergedArgs(req: SendRequest): Issue[] {
  return req.envelopes.filter((e) => Buffer.byteLength(JSON.stringify(e.metadata ?? {})) >= MAX_ARGS_BYTES)
    .map((e) => ({ field: `${e.path}.custom_args`, message: MSG.argsTooLarge("custom_args") }));
}

/** Bytes of what will be sent once: bodies of every envelope plus the attachments (shared). */
export function measureRequest(req: SendRequest): number {
  const bodies = req.envelopes.reduce((n, e) => n + Buffer.byteLength(e.text ?? "") + Buffer.byteLength(e.html ?? "") + Buffer.byteLength(e.amp ?? ""), 0);
  return bodies + (req.attachments ?? []).reduce((n, a) => n + a.content.byteLength, 0);
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.field}\u0000${i.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** SendGrid's verdicts: deliverable → Valid, undeliverable → Invalid, risky or unknown → Risky. */
const VERDICTS = { deliverable: "Valid", undeliverable: "Invalid", risky: "Risky", unknown: "Risky" } as const;

/** ValidationResult → `{result: {...}}` of POST /v3/validations/email. */
export function toValidationBody(r: ValidationResult, opts: { ip: string; source?: string; hasKnownBounce: boolean }) {
  const suggestion = r.did_you_mean ? r.did_you_mean.slice(r.did_you_mean.lastIndexOf("@") + 1) : undefined;
  const result: Record<string, unknown> = {
    email: r.email, verdict: VERDICTS[r.result], score: r.sendex, local: r.user, host: r.domain,
    ...(suggestion ? { suggestion } : {}),
    checks: {
      domain: {
        has_valid_address_syntax: r.checks.is_valid_syntax, has_mx_or_a_record: r.checks.has_mx_or_a,
        is_suspected_disposable_address: r.disposable,
      },
      local_part: { is_suspected_role_address: r.role },
      additional: {
        has_known_bounces: opts.hasKnownBounce || r.checks.has_bounced === true,
        has_suspected_bounces: r.checks.smtp === "reject" || r.checks.is_null_mx,
      },
    },
    ...(opts.source !== undefined ? { source: opts.source } : {}),
    ip_address: opts.ip,
  };
  return { result };
}
