// Mailgun's template objects ⇄ stored templates: a template is named (lower case, the id), its
// versions are tagged (the version id), one is active; headers (From, Reply-To, Subject) ride
// with each version. Pages go by name as `?page=next&p=<name>&limit=N`.
import type { StoredTemplate, TemplateVersion } from "../../core/template-model.ts";
import { activeVersion } from "../../core/template-service.ts";
import { invalid } from "../../core/errors.ts";
import type { Form } from "./form.ts";
import { formatDate } from "./model.ts";
import { parseAddress } from "../../core/address/address.ts";

export type MgHeaders = { From?: string; "Reply-To"?: string; Subject?: string };
const HEADER_NAMES = ["From", "Reply-To", "Subject"] as const;

export function shortVersion(v: TemplateVersion) {
  return { tag: v.id, engine: "handlebars", mjml: "", createdAt: formatDate(v.createdAt), comment: String(v.extra.comment ?? ""), active: v.active, id: v.id };
}

/**
 * A version's headers as stored: Mailgun's own (`mg_headers`), and From / Reply-To in the fields
 * other surfaces read (SparkPost's `from` and `reply_to`), so the template sends from anywhere.
 */
export function sharedHeaders(headers: MgHeaders): Record<string, unknown> {
  const from = headers.From ? parseAddress(headers.From) : null;
  return { mg_headers: headers, ...(from ? { from: { email: from.email, ...(from.name ? { name: from.name } : {}) } } : {}),
    ...(headers["Reply-To"] ? { reply_to: headers["Reply-To"] } : {}) };
}

export function fullVersion(v: TemplateVersion) {
  const headers = (v.extra.mg_headers as MgHeaders | undefined) ?? {};
  return { ...shortVersion(v), template: v.html ?? v.text ?? "", ...(Object.keys(headers).length ? { headers } : {}) };
}

export const templateHead = (t: StoredTemplate) => ({
  name: t.name, description: t.description, createdAt: formatDate(t.createdAt), createdBy: String(t.extra.createdBy ?? ""), id: t.id,
});

/** GET /templates/{name}: with `?active=yes` the active version (with content) is included. */
export function toMgTemplate(t: StoredTemplate, withActive: boolean) {
  const v = withActive ? activeVersion(t) : undefined;
  return { ...templateHead(t), ...(v ? { version: fullVersion(v) } : {}) };
}

/** The `headers` form field: a JSON object of From, Reply-To and Subject only. */
export function readHeaders(form: Form): MgHeaders | undefined {
  const text = form.get("headers");
  if (text === undefined || !text.trim()) return undefined;
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { throw invalid("headers must be a JSON object", "headers"); }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("headers must be a JSON object", "headers");
  const out: MgHeaders = {};
  for (const [k, v] of Object.entries(parsed)) {
    const name = HEADER_NAMES.find((h) => h.toLowerCase() === k.toLowerCase());
    if (!name) throw invalid(`header ${k} is not allowed: only From, Reply-To and Subject`, "headers");
    if (typeof v !== "string" || /[\r\n]/.test(v)) throw invalid(`header ${k} must be a one-line string`, "headers");
    out[name] = v;
  }
  return out;
}

const TAG_RE = /^[A-Za-z0-9_.-]{1,128}$/;
export function readTag(value: string | undefined, fallback?: string): string {
  const tag = (value ?? fallback ?? "").trim().toLowerCase();
  if (!TAG_RE.test(tag)) throw invalid("tag is invalid: letters, digits, '_', '-' and '.', at most 128", "tag");
  return tag;
}

export const MAX_TEMPLATE_CHARS = 100 * 1024;
export function readBody(form: Form, required: boolean): string | undefined {
  const body = form.get("template");
  if (body === undefined || body === "") {
    if (required) throw invalid("template parameter is missing", "template");
    return undefined;
  }
  if (body.length > MAX_TEMPLATE_CHARS) throw invalid(`template is larger than ${MAX_TEMPLATE_CHARS} characters`, "template");
  return body;
}

/** Items after (next) or before (previous) the pivot name, or the first / last page. */
export function pageOf<T extends { name: string }>(items: T[], page: string | undefined, pivot: string | undefined, limit: number): T[] {
  const at = pivot === undefined ? -1 : items.findIndex((x) => x.name === pivot);
  if (page === "last") return items.slice(Math.max(0, items.length - limit));
  if (page === "next" && at >= 0) return items.slice(at + 1, at + 1 + limit);
  if ((page === "previous" || page === "prev") && at >= 0) return items.slice(Math.max(0, at - limit), at);
  return items.slice(0, limit);
}

export function pagingOf(base: string, items: { name: string }[], limit: number) {
  const link = (page: string, p?: string) => `${base}?page=${page}${p !== undefined ? `&p=${encodeURIComponent(p)}` : ""}&limit=${limit}`;
  return { first: link("first"), last: link("last"), next: link("next", items.at(-1)?.name ?? ""), previous: link("previous", items[0]?.name ?? "") };
}
