// Mailgun-style batch sending (Mailgun and native surfaces): `recipient-variables` is a JSON object
// keyed by recipient address; `%recipient%` is the address and `%recipient.<key>%` (dotted paths
// reach nested values) comes from that recipient's own variables. Unknown keys become "".
import type { Address } from "./model.ts";
import { invalid } from "./errors.ts";

export type RecipientVariables = Record<string, Record<string, unknown>>;

const PLACEHOLDER = /%recipient(?:\.([^%\s]+))?%/g;

/** Parses the JSON object keyed by plain address; keys are matched case-insensitively. */
export function parseRecipientVariables(text: string): RecipientVariables {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("'recipient-variables' parameter is not a valid JSON", "recipient-variables");
  }
  return toRecipientVariables(parsed);
}

/** Normalises an already-decoded object (a JSON request body) the same way. */
export function toRecipientVariables(parsed: unknown): RecipientVariables {
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid("'recipient-variables' parameter must be a JSON object keyed by recipient address", "recipient-variables");
  }
  // No prototype: a "__proto__" or "constructor" key is just an (unmatched) address.
  const out: RecipientVariables = Object.create(null);
  for (const [address, vars] of Object.entries(parsed)) {
    out[address.trim().toLowerCase()] = vars && typeof vars === "object" && !Array.isArray(vars) ? (vars as Record<string, unknown>) : {};
  }
  return out;
}

function lookup(vars: Record<string, unknown>, path: string): string {
  // A key may itself contain dots ("a.b"); an exact key wins over a nested path.
  const own = (v: unknown, k: string) => (v && typeof v === "object" && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined);
  let value: unknown = Object.hasOwn(vars, path) ? vars[path] : path.split(".").reduce<unknown>(own, vars);
  if (value === undefined || value === null) return "";
  if (typeof value === "object") value = JSON.stringify(value);
  return String(value);
}

/** Replaces the placeholders in `text` for one recipient; unknown keys become "" (as Mailgun's). */
export function substitute(text: string, rcpt: Address, vars: Record<string, unknown>): string;
export function substitute(text: string | undefined, rcpt: Address, vars: Record<string, unknown>): string | undefined;
export function substitute(text: string | undefined, rcpt: Address, vars: Record<string, unknown>): string | undefined {
  if (text === undefined || !text.includes("%recipient")) return text;
  return text.replace(PLACEHOLDER, (_m, key: string | undefined) => (key === undefined ? rcpt.email : lookup(vars, key)));
}

/** The variables of `rcpt` (empty when the object has none for it). */
export const variablesOf = (all: RecipientVariables, rcpt: Address): Record<string, unknown> => all[rcpt.email.trim().toLowerCase()] ?? {};

/** Substitutes every value of a string map (headers, user variables). */
export function substituteAll(map: Record<string, string>, rcpt: Address, vars: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, substitute(v, rcpt, vars)]));
}
