// SparkPost's template objects ⇄ stored templates. A SparkPost template has at most a draft
// (version "draft") and a published version (the active one); templates made through another
// surface show their active version as published. from / reply_to / headers / options ride in
// the version's extra fields.
import type { StoredTemplate, TemplateVersion } from "../../core/template-model.ts";
import { activeVersion } from "../../core/template-service.ts";
import { badFormat, missingField } from "./errors.ts";
import { readFrom, type Json } from "./model.ts";
import { isObject, isoSeconds } from "../wire.ts";

export const DRAFT = "draft";
export const PUBLISHED = "published";

const iso = (ms: number) => isoSeconds(ms, "+00:00");

export interface SpContent {
  subject?: string;
  html?: string;
  text?: string;
  extra: { from?: { email: string; name?: string }; reply_to?: string; headers?: Record<string, string>; amp_html?: string };
}

export interface SpTemplateInput {
  id?: string;
  name?: string;
  description?: string;
  published?: boolean;
  content?: SpContent;
  options?: Json;
}

function str(obj: Json, key: string, path: string, max = 20 * 1024 * 1024): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw badFormat(`${path}${key} must be a string`);
  if (v.length > max) throw badFormat(`${path}${key} is too long`);
  return v;
}

function readContent(v: unknown, complete: boolean): SpContent {
  if (!isObject(v)) throw badFormat("content must be an object");
  const headers = v.headers;
  if (headers !== undefined && (!isObject(headers) || Object.values(headers).some((h) => typeof h !== "string"))) throw badFormat("content.headers must be an object of strings");
  const c: SpContent = {
    subject: str(v, "subject", "content."), html: str(v, "html", "content."), text: str(v, "text", "content."),
    extra: {
      ...(v.from !== undefined ? { from: readFrom(v.from, "content.from") } : {}),
      ...(v.reply_to !== undefined ? { reply_to: str(v, "reply_to", "content.") } : {}),
      ...(headers !== undefined ? { headers: headers as Record<string, string> } : {}),
      ...(v.amp_html !== undefined ? { amp_html: str(v, "amp_html", "content.") } : {}),
    },
  };
  if (complete) {
    if (!c.extra.from) throw missingField("content.from is required");
    if (c.subject === undefined) throw missingField("content.subject is required");
    if (c.html === undefined && c.text === undefined) throw missingField("At least one of text or html needs to exist in content");
  }
  return c;
}

/** A template body; `create` requires name (or id) and complete content. */
export function readTemplateInput(body: unknown, create: boolean): SpTemplateInput {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  const out: SpTemplateInput = { id: str(body, "id", "", 64), name: str(body, "name", "", 1024), description: str(body, "description", "", 1024) };
  if (body.published !== undefined) {
    if (typeof body.published !== "boolean") throw badFormat("published must be a boolean");
    out.published = body.published;
  }
  if (body.options !== undefined) {
    if (!isObject(body.options)) throw badFormat("options must be an object");
    out.options = body.options;
  }
  if (body.content !== undefined || create) out.content = readContent(body.content, create);
  if (create && !out.name && !out.id) throw missingField("name is required");
  if (out.id !== undefined && !/^[A-Za-z0-9_.-]+$/.test(out.id)) throw badFormat("id may hold letters, digits, '_', '-' and '.' only");
  return out;
}

/** SparkPost derives an id from the name: lower case, runs of other characters as '-'. */
export const idFromName = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64) || "template";

export const draftOf = (t: StoredTemplate) => t.versions.find((v) => v.id === DRAFT);
export const publishedOf = (t: StoredTemplate) => activeVersion(t);

export function contentOf(v: TemplateVersion) {
  const e = v.extra as SpContent["extra"];
  return {
    from: e.from ?? { email: "" }, subject: v.subject ?? "", ...(v.html !== undefined ? { html: v.html } : {}), ...(v.text !== undefined ? { text: v.text } : {}),
    ...(e.amp_html !== undefined ? { amp_html: e.amp_html } : {}), ...(e.reply_to !== undefined ? { reply_to: e.reply_to } : {}), headers: e.headers ?? {},
  };
}

export function toSpSummary(t: StoredTemplate) {
  const published = publishedOf(t);
  return {
    id: t.id, name: t.name, description: t.description, published: Boolean(published) && !draftOf(t), has_draft: Boolean(draftOf(t)),
    // As sending domains: `subaccount_id` on a subaccount's template, `shared_with_subaccounts` on the primary's.
    has_published: Boolean(published), last_update_time: iso(t.updatedAt), ...(t.tenantId ? { subaccount_id: t.tenantId } : { shared_with_subaccounts: false }),
  };
}

export function toSpTemplate(t: StoredTemplate, v: TemplateVersion) {
  return { ...toSpSummary(t), published: v.active, content: contentOf(v), options: (t.extra.options as Json | undefined) ?? {} };
}
