// Stored templates used by name (SendGrid template_id, Mailgun template, SparkPost template_id):
// Handlebars files `<dir>/<name>.subject`, `<name>.html`, `<name>.txt`, compiled once and cached
// until the file's mtime or size changes. Names are plain file stems, never paths. Handlebars is
// loaded with the first template (a few MB of a server's memory otherwise).
import type Handlebars from "handlebars";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { invalid } from "./errors.ts";

export interface TemplateParts {
  subject?: string;
  html?: string;
  text?: string;
}

export interface TemplateStore {
  /** The raw sources of a template, or null when no part exists (or the name is not allowed). */
  get(name: string): Promise<TemplateParts | null>;
  /** The parts rendered with `data`; null when no part exists. Throws AppError(invalid) on a broken template. */
  render(name: string, data: Record<string, unknown>): Promise<TemplateParts | null>;
}

// Only a file stem: no separators, no leading dot (hidden files, "." and ".."), bounded length.
const NAME_RE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;
const PARTS = [["subject", ".subject"], ["html", ".html"], ["text", ".txt"]] as const;
type PartName = (typeof PARTS)[number][0];

interface CachedFile {
  mtimeMs: number;
  size: number;
  source: string;
  compiled: Handlebars.TemplateDelegate;
}

/** True when `name` may be used as a template name. */
export const isValidTemplateName = (name: unknown): name is string => typeof name === "string" && NAME_RE.test(name);

export function createTemplateStore({ dir }: { dir: string }): TemplateStore {
  // An isolated instance: helpers or partials registered elsewhere cannot change our output.
  let hbs: typeof Handlebars | null = null;
  const cache = new Map<string, CachedFile>();

  async function load(name: string, part: PartName, ext: string): Promise<CachedFile | null> {
    const file = join(dir, name + ext);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      cache.delete(file);
      return null;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    const source = await readFile(file, "utf8");
    // Only HTML is HTML-escaped: a subject or a text body with "&amp;" in it would be wrong.
    hbs ??= (require("handlebars") as typeof Handlebars).create();
    const compiled = hbs.compile(source, { noEscape: part !== "html", strict: false });
    const entry = { mtimeMs: info.mtimeMs, size: info.size, source, compiled };
    cache.set(file, entry);
    return entry;
  }

  async function loadAll(name: string): Promise<Partial<Record<PartName, CachedFile>> | null> {
    if (!isValidTemplateName(name)) return null;
    const files = await Promise.all(PARTS.map(([part, ext]) => load(name, part, ext)));
    const out: Partial<Record<PartName, CachedFile>> = {};
    PARTS.forEach(([part], i) => { if (files[i]) out[part] = files[i]!; });
    return Object.keys(out).length ? out : null;
  }

  return {
    async get(name) {
      const files = await loadAll(name);
      if (!files) return null;
      const out: TemplateParts = {};
      for (const [part] of PARTS) if (files[part]) out[part] = files[part]!.source;
      return out;
    },

    async render(name, data) {
      const files = await loadAll(name);
      if (!files) return null;
      const out: TemplateParts = {};
      for (const [part] of PARTS) {
        const file = files[part];
        if (!file) continue;
        try {
          out[part] = file.compiled(data ?? {});
        } catch (err) {
          // Handlebars compiles lazily, so syntax errors of the file surface here too.
          throw invalid(`template ${name} (${part}) could not be rendered: ${firstLine(err)}`);
        }
      }
      return out;
    },
  };
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];
