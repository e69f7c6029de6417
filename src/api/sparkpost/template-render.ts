// Stored templates in SparkPost's substitution language: the preview of one version, and the
// check a transmission makes before using one (a syntax error names template and version).
import type { StoredTemplate, TemplateVersion } from "../../core/template-model.ts";
import type { TemplateParts } from "../../core/templates.ts";
import { spError } from "./errors.ts";
import { compileTemplate, TemplateError, type TemplateMode } from "./substitution.ts";
import type { contentOf } from "./template-wire.ts";

const MODES: [keyof TemplateParts, TemplateMode][] = [["subject", "header"], ["html", "html"], ["text", "text"]];

const failed = (id: string, version: string, part: string, e: TemplateError) =>
  spError(422, "1300", "invalid data format/type", `template '${id}' version '${version}' (${part}): ${e.message}`);

/** Compiles every part once so a broken stored template answers 422 naming template, version and part. */
export function checkStoredTemplate(id: string, version: string, parts: TemplateParts): void {
  for (const [part, mode] of MODES) {
    const source = parts[part];
    if (source === undefined) continue;
    try {
      compileTemplate(source, mode);
    } catch (e) {
      if (e instanceof TemplateError) throw failed(id, version, part, e);
      throw e;
    }
  }
}

/** POST /templates/{id}/preview: the version's content rendered with `data`. */
export function renderPreview(t: StoredTemplate, v: TemplateVersion, content: ReturnType<typeof contentOf>, data: Record<string, unknown>) {
  const render = (source: string | undefined, mode: TemplateMode, part: string) => {
    if (source === undefined) return undefined;
    try {
      return compileTemplate(source, mode).render(data);
    } catch (e) {
      if (e instanceof TemplateError) throw failed(t.id, v.id, part, e);
      throw e;
    }
  };
  const headers = Object.fromEntries(Object.entries(content.headers).map(([k, h]) => [k, render(h, "header", `headers.${k}`)!]));
  return {
    from: { email: render(content.from.email, "header", "from.email"), ...(content.from.name ? { name: render(content.from.name, "header", "from.name") } : {}) },
    subject: render(content.subject, "header", "subject"), ...(content.html !== undefined ? { html: render(content.html, "html", "html") } : {}),
    ...(content.text !== undefined ? { text: render(content.text, "text", "text") } : {}),
    ...(content.reply_to !== undefined ? { reply_to: render(content.reply_to, "header", "reply_to") } : {}), headers,
  };
}
