// A read MessageForm → SendRequest: renders the stored template (Handlebars, with v: variables,
// template_variables and, in batch mode, `recipient`), then applies `%recipient.<name>%`. With
// recipient-variables every `to` address gets its own message, cc and bcc a copy of each (Mailgun).
import type { Attachment, SendEnvelope, SendRequest } from "../../core/model.ts";
import type { TemplateStore } from "../../core/templates.ts";
import { isValidTemplateName } from "../../core/templates.ts";
import { invalid } from "../../core/errors.ts";
import type { MessageForm } from "./message-form.ts";
import { substitute, substituteAll, variablesOf } from "../../core/recipient-variables.ts";

/** Mailgun carries v: variables to the recipient in this header, as JSON. */
export const VARIABLES_HEADER = "X-Mailgun-Variables";

interface Content { subject: string; text?: string; html?: string; amp?: string }

/** A v: value that is JSON (as Mailgun recommends) is handed to templates decoded. */
function decodeVariables(variables: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).map(([k, v]) => {
    try { return [k, JSON.parse(v)]; } catch { return [k, v]; }
  }));
}

async function renderContent(form: MessageForm, templates: TemplateStore, recipient?: Record<string, unknown>): Promise<Content> {
  const given: Content = { subject: form.subject ?? "", text: form.text, html: form.html, amp: form.amp };
  if (!form.template) return given;
  if (!isValidTemplateName(form.template)) throw invalid(`template "${form.template}" is not a valid template name`, "template");
  const data = { ...decodeVariables(form.variables), ...form.templateVariables, ...(recipient ? { recipient } : {}) };
  const rendered = await templates.render(form.template, data);
  if (!rendered) throw invalid(`template "${form.template}" not found`, "template");
  // Fields given in the request win over the template's parts.
  return { subject: form.subject ?? rendered.subject ?? "", text: form.text ?? rendered.text, html: form.html ?? rendered.html, amp: form.amp };
}

/** Headers and v: variables, substituted per recipient by `fill` in batch mode. */
function withHeaders(form: MessageForm, fill: (m: Record<string, string>) => Record<string, string>) {
  const metadata = fill(form.variables);
  const headers = fill(form.headers);
  if (Object.keys(metadata).length) headers[VARIABLES_HEADER] = JSON.stringify(metadata);
  return { headers, metadata };
}

async function envelopeFor(form: MessageForm, templates: TemplateStore, to: MessageForm["to"], vars?: Record<string, unknown>): Promise<SendEnvelope> {
  const c = await renderContent(form, templates, vars);
  const rcpt = to[0];
  const body = vars && rcpt
    ? { subject: substitute(c.subject, rcpt, vars), text: substitute(c.text, rcpt, vars), html: substitute(c.html, rcpt, vars), amp: substitute(c.amp, rcpt, vars) }
    : c;
  const envelope: SendEnvelope = { to, cc: form.cc, bcc: form.bcc, ...body, ...withHeaders(form, vars && rcpt ? (h) => substituteAll(h, rcpt, vars) : (h) => h), path: "" };
  return envelope;
}

/** One envelope, or one per `to` address when recipient-variables are given. */
export async function buildEnvelopes(form: MessageForm, templates: TemplateStore): Promise<SendEnvelope[]> {
  const batch = form.recipientVariables;
  if (!batch || form.to.length === 0) return [await envelopeFor(form, templates, form.to)];
  // As Mailgun's batch sending (and this project's Mailgun surface): every to, cc and bcc address
  // gets its own copy, addressed to it alone, so nobody gets one copy per To address.
  const everyone = [...form.to, ...form.cc, ...form.bcc];
  return Promise.all(everyone.map((a) => envelopeFor({ ...form, cc: [], bcc: [] }, templates, [a], variablesOf(batch, a))));
}

export async function toSendRequest(form: MessageForm, domain: string, attachments: Attachment[], templates: TemplateStore): Promise<SendRequest> {
  const req: SendRequest = {
    domain, from: form.from, envelopes: await buildEnvelopes(form, templates), attachments, tags: form.tags, source: "native",
  };
  if (form.replyTo) req.replyTo = form.replyTo;
  if (form.callbackUrl) req.callbackUrl = form.callbackUrl;
  if (form.pool) req.ipPool = form.pool;
  if (form.isTestMode !== undefined) req.isTestMode = form.isTestMode;
  if (Object.keys(form.tracking).length) req.tracking = form.tracking;
  return req;
}
