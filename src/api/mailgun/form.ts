// Reads any Mailgun request body the same way whatever its content type: multipart and
// urlencoded forms keep every value of a repeated key (to, o:tag, url...), a JSON body is kept
// as is (bulk suppressions), and an empty body under a form content type (mailgun.js GET/DELETE/
// verify) is just an empty form. Query parameters are merged after the body's.
import { Elysia } from "elysia";
import { permissions } from "../permission.ts";
import { AppError, invalid } from "../../core/errors.ts";

/** Mailgun refuses requests above 52.4 MiB (its documented 413). */
export const MAX_REQUEST_BYTES = 52_428_800;

export type FormValue = string | File;

export class Form {
  constructor(private readonly fields: Map<string, FormValue[]>, readonly json: unknown = undefined) {}

  /** The first text value of `name`; undefined when absent or only a file. */
  get(name: string): string | undefined {
    const v = this.fields.get(name)?.find((x) => typeof x === "string");
    return v as string | undefined;
  }

  /** Every text value of `name` in order (files left out). */
  getAll(name: string): string[] {
    return (this.fields.get(name) ?? []).filter((x): x is string => typeof x === "string");
  }

  /** Every value of `name`, text or file (attachments may come either way). */
  values(name: string): FormValue[] {
    return this.fields.get(name) ?? [];
  }

  keys(): string[] {
    return [...this.fields.keys()];
  }

  /** Keys starting with `prefix` (h:, v:, o:) with their first text value. */
  withPrefix(prefix: string): [string, string][] {
    return this.keys().filter((k) => k.startsWith(prefix) && k.length > prefix.length)
      .map((k) => [k.slice(prefix.length), this.get(k) ?? ""] as [string, string]);
  }
}

function append(map: Map<string, FormValue[]>, key: string, value: FormValue) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

async function readBody(request: Request, map: Map<string, FormValue[]>): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return undefined;
  if (type.startsWith("multipart/form-data")) {
    const data = await request.formData();
    for (const [k, v] of data.entries()) append(map, k, v as FormValue);
    return undefined;
  }
  const text = await request.text();
  if (!text.trim()) return undefined;
  if (type.startsWith("application/json") || (/^\s*[[{]/.test(text) && !type.includes("urlencoded"))) {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === "object" && !Array.isArray(json)) {
      for (const [k, v] of Object.entries(json)) append(map, k, typeof v === "string" ? v : JSON.stringify(v));
    }
    return json;
  }
  for (const [k, v] of new URLSearchParams(text)) append(map, k, v);
  return undefined;
}

/** Reads body and query of `request` into a Form; a body that does not parse is a 400. */
export async function readForm(request: Request): Promise<Form> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_REQUEST_BYTES) throw new AppError("too_large", "request size exceeds 52.4MiB limit");
  const map = new Map<string, FormValue[]>();
  let json: unknown;
  try {
    json = await readBody(request, map);
  } catch {
    throw invalid("the request body could not be parsed");
  }
  for (const [k, v] of new URL(request.url).searchParams) append(map, k, v);
  return new Form(map, json);
}

/** Mailgun's booleans: yes/no, true/false (any case); undefined when absent or unknown. */
export function parseYesNo(value: string | undefined): boolean | undefined {
  const v = value?.trim().toLowerCase();
  if (v === "yes" || v === "true" || v === "1" || v === "htmlonly") return true;
  if (v === "no" || v === "false" || v === "0") return false;
  return undefined;
}

/**
 * A route group that leaves the body to readForm: Elysia's own parsers would keep only one value
 * per repeated key and fail on a JSON array or an empty form body.
 */
export const routeGroup = () => new Elysia().use(permissions).onParse(() => ({}));
