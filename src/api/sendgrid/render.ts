// The content of one personalization: template (Handlebars with dynamic_template_data), content
// blocks, footer, then substitutions on subject, bodies and header values, never on custom_args.
// Each personalization is rendered on its own, so one recipient's data cannot reach another.
import { UNSUBSCRIBE_PLACEHOLDER } from "../../tracking/rewrite.ts";
import type { Issue } from "../../core/errors.ts";
import { AppError } from "../../core/errors.ts";
import { checkHeaders, hasLineBreak } from "../../core/headers.ts";
import type { TemplateParts } from "../../core/templates.ts";
import type { TemplateRenderer } from "./template-source.ts";
import { deepMerge } from "./fields.ts";
import { baseType } from "./parts.ts";
import { MSG, type SgMail, type SgPersonalization } from "./model.ts";

export interface RenderedContent {
  subject: string;
  text?: string;
  html?: string;
  amp?: string;
  headers: Record<string, string>;
}

/** The body parts of `content[]` postern composes itself; other types travel as attachments. */
export function bodyParts(mail: SgMail): { text?: string; html?: string; amp?: string } {
  const pick = (t: string) => mail.content.find((c) => baseType(c.type) === t)?.value;
  return { text: pick("text/plain"), html: pick("text/html"), amp: pick("text/x-amp-html") };
}

/** Renders personalization `i`; problems (bad template data, injected line breaks) go to `issues`. */
export async function renderPersonalization(mail: SgMail, i: number, templates: TemplateRenderer, issues: Issue[]): Promise<RenderedContent | undefined> {
  const p = mail.personalizations[i]!;
  const path = `personalizations.${i}`;
  const base = withSubscription(withFooter(bodyParts(mail), mail), mail);
  let subject = p.subject ?? mail.subject ?? "";
  let { text, html, amp } = base;
  if (mail.templateId) {
    const tpl = await renderTemplate(mail.templateId, deepMerge(mail.dynamicTemplateData, p.dynamicTemplateData), templates, issues);
    if (!tpl) return undefined;
    ({ subject, text, html } = applyTemplate(tpl, { subject, text, html }));
  }
  const sub = createSubstituter(mail, p);
  const out: RenderedContent = {
    subject: sub(subject)!.trim(), text: sub(text), html: sub(html), amp: sub(amp),
    headers: Object.fromEntries(Object.entries(mergeHeaders(mail.headers, p.headers)).map(([k, v]) => [k, sub(v)!])),
  };
  const before = issues.length;
  if (!out.subject) issues.push({ field: "subject", message: MSG.subject });
  else if (hasLineBreak(out.subject)) issues.push({ field: `${path}.subject`, message: MSG.renderedSubjectLine });
  issues.push(...checkHeaders(out.headers, `${path}.headers`));
  if (!out.text && !out.html && !out.amp) issues.push({ field: "content", message: MSG.renderedBody });
  return issues.length > before ? undefined : out;
}

async function renderTemplate(id: string, data: Record<string, unknown>, templates: TemplateRenderer, issues: Issue[]): Promise<TemplateParts | null> {
  try {
    const tpl = await templates.render(id, data);
    if (!tpl) issues.push({ field: "template_id", message: MSG.templateMissing(id) });
    return tpl;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    issues.push({ field: "template_id", message: err.message });
    return null;
  }
}

/**
 * A template part wins over the request's; legacy-style `<%subject%>` and `<%body%>` tags in the
 * template take the request's subject and the content block of the same type.
 */
function applyTemplate(tpl: TemplateParts, req: { subject: string; text?: string; html?: string }) {
  const fill = (part: string | undefined, tag: string, value: string | undefined) => part?.split(tag).join(value ?? "");
  const tplSubject = tpl.subject?.trim();
  return {
    subject: tplSubject ? fill(tplSubject, "<%subject%>", req.subject)! : req.subject,
    text: tpl.text !== undefined ? fill(tpl.text, "<%body%>", req.text) : req.text,
    html: tpl.html !== undefined ? fill(tpl.html, "<%body%>", req.html) : req.html,
  };
}

/** mail_settings.footer: appended to the text, and before </body> in HTML (or at its end). */
function withFooter(parts: { text?: string; html?: string; amp?: string }, mail: SgMail) {
  const footer = mail.mailSettings.footer;
  if (!footer) return parts;
  const text = parts.text !== undefined && footer.text ? `${parts.text}\n\n${footer.text}` : parts.text;
  let html = parts.html;
  if (html !== undefined && footer.html) {
    const at = html.toLowerCase().lastIndexOf("</body>");
    html = at >= 0 ? html.slice(0, at) + footer.html + html.slice(at) : html + footer.html;
  }
  return { ...parts, text, html };
}

const SUBSCRIPTION_TEXT = "If you would like to unsubscribe and stop receiving these emails click here: <% %>.";
const SUBSCRIPTION_HTML = "<p>If you would like to unsubscribe and stop receiving these emails <% click here %>.</p>";

/**
 * subscription_tracking as SendGrid does it: the substitution_tag, where the sender put it, becomes
 * the unsubscribe URL; otherwise a footer is added whose `<% text %>` becomes the link. The core's
 * tracking fills %unsubscribe_url% per recipient.
 */
function withSubscription(parts: { text?: string; html?: string; amp?: string }, mail: SgMail) {
  const sub = mail.subscription;
  if (!sub) return parts;
  if (sub.tag) {
    const put = (s: string | undefined) => s?.split(sub.tag!).join(UNSUBSCRIBE_PLACEHOLDER);
    return { ...parts, text: put(parts.text), html: put(parts.html) };
  }
  const text = parts.text !== undefined ? `${parts.text}\n\n${(sub.text ?? SUBSCRIPTION_TEXT).replace(/<%\s*%>/g, UNSUBSCRIBE_PLACEHOLDER)}` : undefined;
  const footer = (sub.html ?? SUBSCRIPTION_HTML).replace(/<%\s*([^%]*?)\s*%>/g, (_m, label: string) => `<a href="${UNSUBSCRIBE_PLACEHOLDER}">${label || UNSUBSCRIBE_PLACEHOLDER}</a>`);
  let html = parts.html;
  if (html !== undefined) {
    const at = html.toLowerCase().lastIndexOf("</body>");
    html = at >= 0 ? html.slice(0, at) + footer + html.slice(at) : html + footer;
  }
  return { ...parts, text, html };
}

/** Global headers overridden by the personalization's, names compared case-insensitively. */
function mergeHeaders(global: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const ownNames = new Set(Object.keys(own).map((k) => k.toLowerCase()));
  return { ...Object.fromEntries(Object.entries(global).filter(([k]) => !ownNames.has(k.toLowerCase()))), ...own };
}

/**
 * Replaces each substitution key (the literal tag, e.g. `-name-` or `{{name}}`) in one pass, so
 * a value is never substituted again. A value naming a section becomes that section's text, with
 * the substitutions applied inside it (SendGrid's legacy sections).
 */
export function createSubstituter(mail: SgMail, p: SgPersonalization): (text: string | undefined) => string | undefined {
  const plain: Record<string, string> = { ...mail.substitutions, ...p.substitutions };
  const keys = Object.keys(plain).filter((k) => k.length > 0).sort((a, b) => b.length - a.length);
  if (!keys.length) return (text) => text;
  const re = new RegExp(keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  const replacePlain = (text: string) => text.replace(re, (m) => plain[m] ?? m);
  const values = new Map(keys.map((k) => {
    const v = plain[k]!;
    return [k, Object.hasOwn(mail.sections, v) ? replacePlain(mail.sections[v]!) : v] as const;
  }));
  return (text) => (text === undefined ? text : text.replace(re, (m) => values.get(m) ?? m));
}
