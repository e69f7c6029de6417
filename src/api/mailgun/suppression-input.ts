// What a suppression create sends: one entry as a form (unsubscribes, whitelists, curl users),
// a JSON array (mailgun.js for bounces and complaints, bulk unsubscribes) or a CSV file (import).
// Unsubscribe tags are kept in the entry's `code` (comma list; "*" = every tag).
import type { SuppressionType } from "../../core/model.ts";
import type { SuppressionInput } from "../../core/suppressions.ts";
import { invalid } from "../../core/errors.ts";
import type { Form } from "./form.ts";
import { MAX_BULK_SUPPRESSIONS, parseDate } from "./model.ts";

type Fields = Record<string, unknown>;

const text = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v.trim() : String(v));

function tagsOf(f: Fields): string {
  const tags = Array.isArray(f.tags) ? f.tags.map(text) : text(f.tags || f.tag).split(",").map((t) => t.trim());
  const clean = tags.filter(Boolean);
  return clean.length ? clean.join(",") : "*";
}

function createdAt(f: Fields): number | undefined {
  const v = text(f.created_at);
  if (!v) return undefined;
  const ms = parseDate(v);
  if (ms === null) throw invalid(`${v} is not an RFC-2822 compliant date`, "created_at");
  return ms;
}

/** One entry of `type` from its wire fields. */
export function toInput(type: SuppressionType, f: Fields): SuppressionInput {
  if (type === "whitelists" && !text(f.address) && text(f.domain)) {
    throw invalid("domain whitelists are not supported: whitelist single addresses", "domain");
  }
  const address = text(f.address);
  if (!address) throw invalid("address parameter is missing", "address");
  const at = createdAt(f);
  const base = { address, ...(at !== undefined && { createdAt: at }) };
  switch (type) {
    case "bounces": return { ...base, code: text(f.code) || "550", reason: text(f.error) };
    case "unsubscribes": return { ...base, code: tagsOf(f) };
    case "whitelists": return { ...base, reason: text(f.reason) };
    default: return base;
  }
}

/** The entries of a create request: a JSON array (bulk) or the single entry of a form. */
export function inputsOf(type: SuppressionType, form: Form): { entries: SuppressionInput[]; isBulk: boolean } {
  if (Array.isArray(form.json)) {
    if (form.json.length > MAX_BULK_SUPPRESSIONS) throw invalid(`at most ${MAX_BULK_SUPPRESSIONS} addresses per request`);
    const entries = form.json.map((item) => {
      if (!item || typeof item !== "object") throw invalid("each item must be an object with an address");
      return toInput(type, item as Fields);
    });
    return { entries, isBulk: true };
  }
  const fields: Fields = Object.fromEntries(form.keys().map((k) => [k, form.get(k)]));
  return { entries: [toInput(type, fields)], isBulk: false };
}

/** Splits one CSV line (RFC 4180 quotes). */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') { cur += '"'; i++; }
    else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) { out.push(cur); cur = ""; }
    else cur += c;
  }
  out.push(cur);
  return out.map((v) => v.trim());
}

/** The entries of an imported CSV file whose first line names the columns (address, code, error, tags, created_at). */
export function csvInputs(type: SuppressionType, csv: string): SuppressionInput[] {
  const lines = csv.split(/\r?\n/).filter((l) => l.trim());
  const header = splitCsvLine(lines.shift() ?? "").map((h) => h.toLowerCase());
  if (!header.includes("address")) throw invalid("the CSV file needs a header line with an address column", "file");
  return lines.map((line) => {
    const cells = splitCsvLine(line);
    return toInput(type, Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
  });
}
