// The steps of `POST /transmissions`: read the body, resolve template_id, find the sending domain,
// render the envelopes, send them in one core call (one send = one transmission id), and answer with SparkPost's counts,
// rcpt_to_errors (capped by num_rcpt_errors), 2000 for partial acceptance and 1902 for a single
// suppressed recipient.
import type { Domain, Principal, SendRequest } from "../../core/model.ts";
import type { SurfaceDeps } from "../deps.ts";
import { invalidDomain, missingField, SparkpostError, spError } from "./errors.ts";
import { planTransmission, type ResolvedContent, type TransmissionPlan } from "./mapper.ts";
import { readTransmission, type RcptError, type Transmission, type TxContent } from "./model.ts";
import { checkStoredTemplate } from "./template-render.ts";
import { allMembers } from "../../core/list-service.ts";
import { sendsFor } from "../../core/permissions.ts";
import { toSpRecipient } from "./recipient-lists.ts";
import { DRAFT, type SpContent } from "./template-wire.ts";
import type { TemplateScope } from "../../core/template-service.ts";

export type SendDeps = Pick<SurfaceDeps, "sender" | "domains" | "now" | "config" | "templateService" | "lists">;

/** A stored template's options (open_tracking, click_tracking, transactional) where the transmission sets none. */
function templateOptions(tx: Transmission, options: unknown) {
  if (!options || typeof options !== "object") return;
  const o = options as Record<string, unknown>;
  const flag = (v: unknown) => (typeof v === "boolean" ? v : undefined);
  tx.options.openTracking ??= flag(o.open_tracking);
  tx.options.clickTracking ??= flag(o.click_tracking);
  tx.options.transactional ??= flag(o.transactional);
}

/**
 * Whose templates a transmission may use: the key's domain, or for an account key the sender's
 * domain when it is the acting tenant's; then that tenant's account-wide ones (never another tenant's).
 */
async function templateScope(principal: Principal, content: Extract<TxContent, { kind: "template" }>, deps: SendDeps): Promise<TemplateScope> {
  const tenantId = principal.tenant ?? 0;
  if (principal.kind === "domain") return { domainId: principal.domain?.id ?? null, tenantId };
  if (!content.from || content.from.email.includes("{{")) return { domainId: null, tenantId };
  const d = await deps.domains.forSender(content.from.email);
  return { domainId: d && (d.tenantId ?? 0) === tenantId ? d.id : null, tenantId };
}

/**
 * template_id → the stored template's version (published, or the draft with use_draft_template)
 * as inline content (422 1603 when it does not exist). Its parts are rendered later with
 * SparkPost's language; from, reply_to and headers come from the template unless the request names them.
 */
async function resolveContent(principal: Principal, tx: Transmission, deps: SendDeps): Promise<ResolvedContent> {
  const content = tx.content;
  if (content.kind !== "template") return content;
  const id = content.templateId;
  const t = await deps.templateService.resolve(await templateScope(principal, content, deps), id, content.useDraft ? DRAFT : undefined);
  if (!t) throw spError(422, "1603", "Subresource not found", `template '${id}'${content.useDraft ? " has no draft or" : ""} does not exist`);
  checkStoredTemplate(t.id, t.version, t.parts);
  const stored = t.extra as SpContent["extra"];
  templateOptions(tx, t.templateExtra.options);
  const from = content.from ?? stored.from;
  if (!from) throw missingField(`content.from is required: template '${id}' (version ${t.version}) has no sender`);
  return { kind: "inline", inline: { from, subject: (t.parts.subject ?? "").replace(/[\r\n]+$/, ""), text: t.parts.text, html: t.parts.html,
    amp: stored.amp_html, replyTo: content.replyTo ?? stored.reply_to, headers: { ...stored.headers, ...content.headers }, attachments: [], inlineImages: [] } };
}

/** The active domain `email` sends for (exact, or a wildcard parent), within the key's scope and its acting tenant's; else 7001. */
async function sendingDomain(principal: Principal, email: string, deps: SendDeps): Promise<Domain> {
  const d = await deps.domains.forSender(email);
  if (!d || d.state !== "active" || (principal.kind === "domain" && principal.domain?.id !== d.id) || !sendsFor(principal, d)) throw invalidDomain();
  return d;
}

function requestFor(tx: Transmission, plan: TransmissionPlan, domain: Domain): SendRequest {
  const o = tx.options;
  return {
    domain: domain.name, from: plan.from, ...(plan.replyTo ? { replyTo: plan.replyTo } : {}), attachments: plan.attachments, envelopes: plan.envelopes,
    campaignId: tx.campaignId, description: tx.description, ipPool: o.ipPool, templateId: tx.content.kind === "template" ? tx.content.templateId : undefined,
    tracking: { ...(o.openTracking !== undefined ? { opens: o.openTracking } : {}), ...(o.clickTracking !== undefined ? { clicks: o.clickTracking } : {}) },
    isTransactional: o.transactional ?? false, isTestMode: o.sandbox ?? false, skipSuppression: o.skipSuppression ?? false, source: "sparkpost",
  };
}

function capErrors(errors: RcptError[], cap: number | undefined): RcptError[] {
  return cap === undefined ? errors : errors.slice(0, cap);
}

/** `recipients: {list_id}` → the stored list's recipients (422 1603 when the key cannot see it). */
async function withListRecipients(principal: Principal, body: unknown, deps: SendDeps): Promise<unknown> {
  const rcpts = (body as { recipients?: unknown } | null)?.recipients;
  const listId = rcpts && typeof rcpts === "object" && !Array.isArray(rcpts) ? (rcpts as { list_id?: unknown }).list_id : undefined;
  if (typeof listId !== "string" || !listId) return body;
  const l = await deps.lists.find(principal, "recipient-list", listId);
  if (!l) throw spError(422, "1603", "Subresource not found", `recipient list '${listId}' does not exist`);
  return { ...(body as object), recipients: (await allMembers(deps.lists, l)).map(toSpRecipient) };
}

/** Runs a transmission and returns SparkPost's response body (or throws its error). */
export async function sendTransmission(principal: Principal, body: unknown, numRcptErrors: number | undefined, deps: SendDeps) {
  const tx = readTransmission(await withListRecipients(principal, body, deps), deps.now());
  const content = await resolveContent(principal, tx, deps);
  const plan = planTransmission(tx, content, deps.config.smtp.max_message_size);
  const rcptErrors = [...tx.rcptErrors, ...plan.rcptErrors];
  if (plan.accepted === 0) {
    const errors = capErrors(rcptErrors, numRcptErrors);
    throw new SparkpostError(422, errors.length ? errors : [{ message: "required field is missing", code: "1400", description: "at least one recipient is required" }]);
  }
  const domain = await sendingDomain(principal, plan.from.email, deps);
  const sent = await deps.sender.send(principal, requestFor(tx, plan, domain));
  const results = { total_rejected_recipients: rcptErrors.length, total_accepted_recipients: plan.accepted, id: sent.sendId };
  const suppressed = sent.rejected.length;
  if (plan.accepted === 1 && suppressed === 1 && !rcptErrors.length) {
    throw new SparkpostError(400, [{ code: "1902", message: "Message generation rejected", description: "recipient address was suppressed due to system policy" }], { results });
  }
  if (!rcptErrors.length) return { results };
  return { errors: [{ message: "transmission created, but with validation errors", code: "2000" }],
    results: { rcpt_to_errors: capErrors(rcptErrors, numRcptErrors), ...results } };
}
