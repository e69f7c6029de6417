// POST /v3/{domain}/messages: the Mailgun form (from, to/cc/bcc, subject, bodies, files, o:, h:,
// v:, t:/template, recipient-variables) → one SendRequest; SendResult → Mailgun's 200 body.
// Meaning (address validity, header safety, domain, limits) is checked by core/send.ts.
import type { Address, SendEnvelope, SendRequest, SendResult } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";
import type { TemplateParts } from "../../core/templates.ts";
import { parseYesNo, type Form } from "./form.ts";
import { htmlToText } from "../../core/html-text.ts";
import { parseRecipientVariables, substitute, substituteAll, variablesOf, type RecipientVariables } from "../../core/recipient-variables.ts";
import { readAttachments, readOptions, recipientsOf, senderOf, type MessageOptions } from "./message-options.ts";
import { QUEUED_MESSAGE } from "./model.ts";

export const MAX_RECIPIENTS = 1000;

interface Content { subject: string; text?: string; html?: string; amp?: string }

/** Renders stored template `name` (its active version, or `version`) in Mailgun's Handlebars; null when unknown. */
export type MgTemplateRenderer = (name: string, data: Record<string, unknown>, version?: string) => Promise<TemplateParts | null>;

/** Mailgun's 200 answer: the first message's Message-ID with its angle brackets. */
export function toMessageResponse(result: SendResult) {
  const first = result.messages[0];
  return { id: first?.messageIdHeader ?? `<${result.id}>`, message: QUEUED_MESSAGE };
}

function parseJsonObject(text: string | undefined, field: string): Record<string, unknown> {
  if (!text?.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch { /* reported below */ }
  throw invalid(`'${field}' parameter is not a valid JSON object`, field);
}

/** User variables are strings on the wire; JSON ones are handed to templates decoded. */
function decodeVariables(metadata: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).map(([k, v]) => {
    try { return [k, JSON.parse(v)]; } catch { return [k, v]; }
  }));
}

async function readContent(form: Form, opts: MessageOptions, templates: MgTemplateRenderer): Promise<Content> {
  const content: Content = { subject: form.get("subject") ?? "", text: form.get("text") || undefined,
    html: form.get("html") || undefined, amp: form.get("amp-html") || undefined };
  const name = form.get("template") ?? form.get("t:template");
  if (!name) {
    if (!content.text && !content.html && !content.amp) throw invalid("Need at least one of 'text' or 'html' parameters specified", "text");
    return content;
  }
  if (content.html) throw invalid("'html' and 'template' parameters cannot be used together", "template");
  // Template data: v: variables, then h:X-Mailgun-Variables, then t:variables (the most specific wins).
  const data = { ...decodeVariables(opts.metadata), ...parseJsonObject(form.get("h:X-Mailgun-Variables"), "h:X-Mailgun-Variables"),
    ...parseJsonObject(form.get("t:variables") ?? form.get("template_variables"), "t:variables") };
  const version = form.get("t:version")?.trim() || undefined;
  const rendered = await templates(name, data, version);
  if (!rendered) throw invalid(version ? `template "${name}" has no version "${version}"` : `template "${name}" not found`, "template");
  // t:text=yes: a text part made from the rendered HTML.
  const text = content.text ?? rendered.text ?? (parseYesNo(form.get("t:text")) && rendered.html ? htmlToText(rendered.html) : undefined);
  return { subject: form.get("subject") ?? rendered.subject ?? "", text, html: rendered.html, amp: content.amp };
}

function envelopeFor(to: Address[], cc: Address[], bcc: Address[], content: Content, opts: MessageOptions): SendEnvelope {
  return { to, cc, bcc, ...content, headers: opts.headersFor(opts.metadata), metadata: opts.metadata, sendAt: opts.sendAt, path: "message" };
}

/** One copy per recipient (to, cc and bcc alike), each addressed to that recipient only. */
function batchEnvelopes(all: Address[], vars: RecipientVariables, content: Content, opts: MessageOptions): SendEnvelope[] {
  return all.map((rcpt, i) => {
    const own = variablesOf(vars, rcpt);
    const metadata = substituteAll(opts.metadata, rcpt, own);
    return {
      to: [rcpt], subject: substitute(content.subject, rcpt, own), text: substitute(content.text, rcpt, own),
      html: substitute(content.html, rcpt, own), amp: substitute(content.amp, rcpt, own),
      headers: substituteAll(opts.headersFor(metadata), rcpt, own), metadata, sendAt: opts.sendAt, path: `recipient.${i}`,
    };
  });
}

/** Maps the messages form to a SendRequest; `templates` renders `template` / `t:template`. */
export async function toSendRequest(domain: string, form: Form, now: number, templates: MgTemplateRenderer): Promise<SendRequest> {
  const from = senderOf(form);
  const [to, cc, bcc] = [recipientsOf(form, "to"), recipientsOf(form, "cc"), recipientsOf(form, "bcc")];
  if (to.length === 0) throw invalid("to parameter is missing", "to");
  if (to.length + cc.length + bcc.length > MAX_RECIPIENTS) throw invalid(`Too many recipients, max is ${MAX_RECIPIENTS}`, "to");
  const opts = readOptions(form, now);
  const content = await readContent(form, opts, templates);
  const varsText = form.get("recipient-variables");
  const envelopes = varsText
    ? batchEnvelopes([...to, ...cc, ...bcc], parseRecipientVariables(varsText), content, opts)
    : [envelopeFor(to, cc, bcc, content, opts)];
  const template = form.get("template") ?? form.get("t:template");
  return { domain, from, replyTo: opts.replyTo, envelopes, attachments: await readAttachments(form), tags: opts.tags,
    ipPool: opts.ipPool, sendingIp: opts.sendingIp, ...(template ? { templateId: template } : {}), tracking: opts.tracking, isTestMode: opts.isTestMode, source: "mailgun" };
}
