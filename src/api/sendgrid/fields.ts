// Readers for the small JSON values of a SendGrid request (addresses, string maps, booleans…).
// Each reads `unknown`, pushes every problem as an Issue with its dotted path, and returns a
// clean value (or undefined), so one pass over a request lists all of its mistakes.
import type { Address } from "../../core/model.ts";
import type { Issue } from "../../core/errors.ts";
import { hasLineBreak } from "../../core/headers.ts";
import { checkSyntax } from "../../core/address/address.ts";
import { MAX_ARGS_BYTES, MSG } from "./model.ts";

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const isAbsent = (v: unknown) => v === undefined || v === null;

export { emailDomain } from "../../core/address/address.ts";

/** An address object `{email, name?}`; `kind` names it in messages ("to", "from", "reply_to"). */
export function readAddress(value: unknown, field: string, kind: string, issues: Issue[]): Address | undefined {
  if (!isObject(value)) {
    issues.push({ field, message: kind === "from" ? MSG.from : MSG.addressObject(kind) });
    return undefined;
  }
  const { email, name } = value;
  let ok = true;
  if (isAbsent(email) || email === "") {
    issues.push({ field: `${field}.email`, message: MSG.emailRequired(kind) });
    ok = false;
  } else if (typeof email !== "string" || checkSyntax(email).length > 0) {
    const message = kind === "from" ? MSG.fromInvalid : kind === "reply_to" ? MSG.replyToInvalid : MSG.emailInvalid;
    issues.push({ field: `${field}.email`, message });
    ok = false;
  }
  if (!isAbsent(name) && (typeof name !== "string" || hasLineBreak(name))) {
    issues.push({ field: `${field}.name`, message: MSG.name });
    ok = false;
  }
  if (!ok) return undefined;
  const address: Address = { email: (email as string).trim() };
  if (typeof name === "string" && name.trim()) address.name = name.trim();
  return address;
}

/** An optional array of address objects (cc, bcc, reply_to_list); `required` makes absence an issue. */
export function readAddressList(value: unknown, field: string, kind: string, issues: Issue[]): Address[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    issues.push({ field, message: MSG.list(kind) });
    return [];
  }
  const out: Address[] = [];
  value.forEach((item, j) => {
    const a = readAddress(item, `${field}.${j}`, kind, issues);
    if (a) out.push(a);
  });
  return out;
}

/**
 * An object of string values. Numbers and booleans are turned into strings, because
 * @sendgrid/mail passes custom_args numbers through unconverted; anything else is an issue.
 */
export function readStringMap(value: unknown, field: string, issues: Issue[]): Record<string, string> {
  if (isAbsent(value)) return {};
  if (!isObject(value)) {
    issues.push({ field, message: MSG.stringMap(field.replace(/^.*\./, "")) });
    return {};
  }
  const entries: [string, string][] = [];
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string") entries.push([k, v]);
    else if (typeof v === "number" || typeof v === "boolean") entries.push([k, String(v)]);
    else issues.push({ field: `${field}.${k}`, message: MSG.stringMap(field.replace(/^.*\./, "")) });
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return Object.fromEntries(entries);
}

/** A string map that must stay under SendGrid's 10,000-byte ceiling (custom_args, substitutions). */
export function readBoundedMap(value: unknown, field: string, issues: Issue[]): Record<string, string> {
  const map = readStringMap(value, field, issues);
  if (Buffer.byteLength(JSON.stringify(map)) >= MAX_ARGS_BYTES) issues.push({ field, message: MSG.argsTooLarge(field.replace(/^.*\./, "")) });
  return map;
}

/** Any JSON object (dynamic_template_data), or {} when absent. */
export function readObject(value: unknown, field: string, issues: Issue[]): Json {
  if (isAbsent(value)) return {};
  if (!isObject(value)) {
    issues.push({ field, message: MSG.object(field.replace(/^.*\./, "")) });
    return {};
  }
  return value;
}

/** An optional boolean; absent → undefined. */
export function readBoolean(value: unknown, field: string, issues: Issue[]): boolean | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== "boolean") {
    issues.push({ field, message: MSG.boolean(field) });
    return undefined;
  }
  return value;
}

/** An optional string; absent → undefined. */
export function readString(value: unknown, field: string, issues: Issue[], message = MSG.string(field)): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== "string") {
    issues.push({ field, message });
    return undefined;
  }
  return value;
}

/** send_at: integer Unix seconds, at most 72 hours ahead of `nowS`. */
export function readSendAt(value: unknown, field: string, nowS: number, maxAheadS: number, issues: Issue[]): number | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > nowS + maxAheadS) {
    issues.push({ field, message: MSG.sendAt });
    return undefined;
  }
  return value;
}

/** Deep merge of JSON objects, `over` winning; nested objects merge, everything else is replaced. */
export function deepMerge(base: Json, over: Json): Json {
  const keys = new Set([...Object.keys(base), ...Object.keys(over)]);
  return Object.fromEntries([...keys].map((k) => {
    const [a, b] = [base[k], over[k]];
    if (isObject(a) && isObject(b)) return [k, deepMerge(a, b)];
    return [k, Object.hasOwn(over, k) ? b : a];
  }));
}
