// SendGrid's template and version objects ⇄ the core's stored templates. Legacy ids are UUIDs,
// dynamic ids "d-" and 32 hex digits; times are "YYYY-MM-DD HH:MM:SS" in UTC.
import { randomUUID } from "node:crypto";
import type { Issue } from "../../core/errors.ts";
import type { StoredTemplate, TemplateGeneration, TemplateVersion } from "../../core/template-model.ts";
import { isObject } from "./fields.ts";

export const sgTime = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, "");

export const newTemplateId = (generation: TemplateGeneration) =>
  generation === "dynamic" ? `d-${randomUUID().replace(/-/g, "")}` : randomUUID();

export function toSgVersion(t: StoredTemplate, v: TemplateVersion, full = true) {
  const e = v.extra;
  return {
    id: v.id, user_id: 1, template_id: t.id, active: v.active ? 1 : 0, name: v.name,
    ...(full ? { html_content: v.html ?? "", plain_content: v.text ?? "" } : {}),
    generate_plain_content: e.generate_plain_content !== false, subject: v.subject ?? "", updated_at: sgTime(v.updatedAt),
    editor: typeof e.editor === "string" ? e.editor : "code", thumbnail_url: "",
    ...(full && e.test_data !== undefined ? { test_data: e.test_data } : {}),
  };
}

export const toSgTemplate = (t: StoredTemplate, fullVersions = true) => ({
  id: t.id, name: t.name, generation: t.generation, updated_at: sgTime(t.updatedAt),
  versions: t.versions.map((v) => toSgVersion(t, v, fullVersions)),
});

export interface VersionInput {
  name?: string;
  subject?: string;
  html?: string;
  text?: string;
  active?: boolean;
  extra: Record<string, unknown>;
}

const str = (b: Record<string, unknown>, key: string, issues: Issue[], max: number): string | undefined => {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") issues.push({ field: key, message: `${key} must be a string` });
  else if (v.length > max) issues.push({ field: key, message: `${key} must be at most ${max} characters` });
  else return v;
  return undefined;
};

const MAX_CONTENT = 1024 * 1024;

/** A version body (POST: name required; PATCH: every field optional). */
export function readVersion(body: unknown, requireName: boolean): { input: VersionInput; issues: Issue[] } {
  const issues: Issue[] = [];
  const b = isObject(body) ? body : {};
  if (!isObject(body)) issues.push({ field: null as unknown as undefined, message: "The request body must be a JSON object." });
  const input: VersionInput = {
    name: str(b, "name", issues, 100), subject: str(b, "subject", issues, 255),
    html: str(b, "html_content", issues, MAX_CONTENT), text: str(b, "plain_content", issues, MAX_CONTENT), extra: {},
  };
  if (requireName && !input.name) issues.push({ field: "name", message: "name is required" });
  if (b.active !== undefined) {
    if (b.active !== 0 && b.active !== 1 && typeof b.active !== "boolean") issues.push({ field: "active", message: "active must be 0 or 1" });
    else input.active = b.active === 1 || b.active === true;
  }
  if (b.generate_plain_content !== undefined) input.extra.generate_plain_content = b.generate_plain_content !== false;
  if (b.editor !== undefined) {
    if (b.editor !== "code" && b.editor !== "design") issues.push({ field: "editor", message: "editor must be one of code, design" });
    else input.extra.editor = b.editor;
  }
  if (b.test_data !== undefined) input.extra.test_data = b.test_data;
  return { input, issues };
}

/** The template's name and generation from a POST body. */
export function readTemplate(body: unknown): { name?: string; generation: TemplateGeneration; issues: Issue[] } {
  const issues: Issue[] = [];
  const b = isObject(body) ? body : {};
  const name = str(b, "name", issues, 100);
  if (!name) issues.push({ field: "name", message: "name is required" });
  const g = b.generation ?? "legacy";
  if (g !== "legacy" && g !== "dynamic") issues.push({ field: "generation", message: "generation must be one of legacy, dynamic" });
  return { name, generation: g === "dynamic" ? "dynamic" : "legacy", issues };
}
