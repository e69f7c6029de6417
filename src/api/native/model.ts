// Wire shapes of the native automations API (S2): reading multipart / url-encoded (or, for
// low-code tools, JSON) request bodies into one field list, and the checks on single fields
// (booleans, JSON objects, required values). Meaning is checked in the core, not here.
import { invalid } from "../../core/errors.ts";

/** One request body as a list of values per field name (repeated fields keep their order). */
export type FormFields = Map<string, (string | File)[]>;

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/** Reads the body of `request`; a body that is not a form (or a JSON object) is a 400. */
export async function readForm(request: Request): Promise<FormFields> {
  const type = request.headers.get("content-type") ?? "";
  if (/^application\/json\b/i.test(type)) return fromJson(await request.json().catch(() => null));
  if (!FORM_TYPES.test(type)) throw invalid("the body must be multipart/form-data or application/x-www-form-urlencoded");
  let data: Awaited<ReturnType<Request["formData"]>>;
  try {
    data = await request.formData();
  } catch {
    throw invalid("the multipart/form-data body could not be parsed");
  }
  const fields: FormFields = new Map();
  for (const [name, value] of data.entries()) fields.set(name, [...(fields.get(name) ?? []), value as string | File]);
  return fields;
}

// JSON bodies: arrays stand for repeated fields; objects (template_variables, recipient-variables)
// are kept as their JSON text so both encodings go through the same field parsers.
function fromJson(body: unknown): FormFields {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("the JSON body must be an object");
  const fields: FormFields = new Map();
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  for (const [name, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    fields.set(name, Array.isArray(value) ? value.map(text) : [text(value)]);
  }
  return fields;
}

/** Every text value of `name`; a file where text is expected is a 400. */
export function textsOf(fields: FormFields, name: string): string[] {
  return (fields.get(name) ?? []).map((v) => {
    if (typeof v !== "string") throw invalid(`${name} must be a text field, not a file`, name);
    return v;
  });
}

/** The last text value of `name` (as Mailgun, a repeated single-valued field keeps the last), or undefined. */
export function textOf(fields: FormFields, name: string): string | undefined {
  return textsOf(fields, name).at(-1);
}

/** Every file of `name`; a text value where a file is expected is a 400. */
export function filesOf(fields: FormFields, name: string): File[] {
  return (fields.get(name) ?? []).map((v) => {
    if (typeof v === "string") throw invalid(`${name} must be a file (send the request as multipart/form-data)`, name);
    return v;
  });
}

const TRUE = new Set(["yes", "true", "1", "on"]);
const FALSE = new Set(["no", "false", "0", "off"]);

/** yes/no, true/false, 1/0 (any case); undefined when absent; anything else is a 400. */
export function parseFlag(value: string | undefined, field: string): boolean | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw invalid(`${field} must be yes or no, got "${value}"`, field);
}

/** A JSON object given as text; undefined when absent; anything else is a 400. */
export function parseJsonObject(value: string | undefined, field: string): Record<string, unknown> | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid(`${field} must be a JSON object`, field);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid(`${field} must be a JSON object`, field);
  return parsed as Record<string, unknown>;
}

/** A non-empty query or form value, else a 400 naming the field. */
export function required(value: string | undefined | null, field: string): string {
  if (value === undefined || value === null || value.trim() === "") throw invalid(`${field} is required`, field);
  return value.trim();
}

/** The wire names of the suppression types `POST /{domain}/suppress` takes, → the core's list names. */
export const SUPPRESS_TYPES: Record<string, "unsubscribes" | "bounces" | "complaints"> = {
  unsubscribe: "unsubscribes", bounce: "bounces", complaint: "complaints",
  unsubscribes: "unsubscribes", bounces: "bounces", complaints: "complaints",
};

/** A query parameter as one string (the last one when repeated), or undefined. */
export function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  const last = Array.isArray(v) ? v.at(-1) : v;
  return typeof last === "string" ? last : undefined;
}

// Mailgun's documented ceiling for the `addresses` list of the parse call.
export const MAX_PARSE_CHARS = 8000;

