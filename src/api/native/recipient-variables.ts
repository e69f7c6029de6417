// Mailgun-style batch personalisation: `recipient-variables` is a JSON object keyed by recipient
// address; `%recipient.<name>%` (dotted paths reach nested values) is replaced per recipient in the
// subject, the bodies and custom header values. Unknown names become "" as in Mailgun.
import { invalid } from "../../core/errors.ts";

export type RecipientVariables = Map<string, Record<string, unknown>>;

const PLACEHOLDER = /%recipient\.([A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)*)%/g;

/** Keys are matched case-insensitively (addresses are compared lower-cased everywhere else). */
export function toRecipientVariables(json: Record<string, unknown>): RecipientVariables {
  const out: RecipientVariables = new Map();
  for (const [address, vars] of Object.entries(json)) {
    if (!vars || typeof vars !== "object" || Array.isArray(vars)) {
      throw invalid(`recipient-variables: the value for ${address} must be a JSON object`, "recipient-variables");
    }
    out.set(address.trim().toLowerCase(), vars as Record<string, unknown>);
  }
  return out;
}

function lookup(vars: Record<string, unknown>, path: string): unknown {
  let value: unknown = vars;
  for (const key of path.split(".")) {
    if (!value || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const asText = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v));

/** `text` with every `%recipient.<path>%` replaced from `vars`. */
export function substitute(text: string, vars: Record<string, unknown>): string;
export function substitute(text: string | undefined, vars: Record<string, unknown>): string | undefined;
export function substitute(text: string | undefined, vars: Record<string, unknown>): string | undefined {
  return text?.replace(PLACEHOLDER, (_m, path: string) => asText(lookup(vars, path)));
}

/** Header values substituted the same way; core/headers.ts still refuses a value that gained a line break. */
export function substituteHeaders(headers: Record<string, string>, vars: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, substitute(v, vars)]));
}
