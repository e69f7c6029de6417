// Mailgun's mailing list and member objects ⇄ stored lists, and the member inputs: one member
// (form fields), a JSON batch (`members`, up to 1,000) and a CSV upload (address,name,vars,subscribed).
import type { ListMember, StoredList } from "../../core/list-model.ts";
import { invalid } from "../../core/errors.ts";
import { parseAddress } from "../../core/address/address.ts";
import { parseYesNo, type Form } from "./form.ts";
import { formatDate } from "./model.ts";

export const ACCESS_LEVELS = ["readonly", "members", "everyone"];
export const REPLY_PREFERENCES = ["list", "sender"];
export const MAX_BATCH = 1000;

export const toMgList = (l: StoredList) => ({
  access_level: String(l.extra.access_level ?? "readonly"), address: l.id, created_at: formatDate(l.createdAt), description: l.description,
  members_count: l.memberCount, name: l.name, reply_preference: String(l.extra.reply_preference ?? "list"),
});

export const toMgMember = (m: ListMember) => ({ address: m.address, name: m.name, subscribed: m.subscribed, vars: m.vars });

/** access_level and reply_preference from a form, checked. */
export function readListSettings(form: Form): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, allowed] of [["access_level", ACCESS_LEVELS], ["reply_preference", REPLY_PREFERENCES]] as const) {
    const v = form.get(key)?.trim().toLowerCase();
    if (v === undefined || v === "") continue;
    if (!allowed.includes(v)) throw invalid(`${key} must be one of ${allowed.join(", ")}`, key);
    out[key] = v;
  }
  return out;
}

function readVars(v: unknown, field: string): Record<string, unknown> {
  if (v === undefined || v === null || v === "") return {};
  let parsed = v;
  if (typeof v === "string") {
    try { parsed = JSON.parse(v); } catch { throw invalid(`${field} must be a JSON object`, field); }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid(`${field} must be a JSON object`, field);
  return parsed as Record<string, unknown>;
}

/** One member from an address text ("Name <a@b>" or "a@b") and optional fields. */
export function memberOf(text: unknown, fields: { name?: unknown; vars?: unknown; subscribed?: unknown }, subscribedDefault = true): ListMember {
  if (typeof text !== "string" || !text.trim()) throw invalid("address parameter is missing", "address");
  const parsed = parseAddress(text.trim());
  if (!parsed) throw invalid(`${text} is not a valid address`, "address");
  const subscribed = typeof fields.subscribed === "boolean" ? fields.subscribed : parseYesNo(fields.subscribed === undefined ? undefined : String(fields.subscribed));
  return {
    address: parsed.email.toLowerCase(), name: typeof fields.name === "string" ? fields.name : parsed.name ?? "",
    vars: readVars(fields.vars, "vars"), subscribed: subscribed ?? subscribedDefault, extra: {},
  };
}

/** `members` of members.json: a JSON array of address strings or {address, name, vars, subscribed}. */
export function readBatch(text: string | undefined): ListMember[] {
  let parsed: unknown;
  try { parsed = JSON.parse(text ?? ""); } catch { throw invalid("members must be a JSON array", "members"); }
  if (!Array.isArray(parsed)) throw invalid("members must be a JSON array", "members");
  if (parsed.length > MAX_BATCH) throw invalid(`at most ${MAX_BATCH} members per request`, "members");
  return parsed.map((m) => (typeof m === "string" ? memberOf(m, {}) : m && typeof m === "object" ? memberOf((m as Record<string, unknown>).address, m as Record<string, unknown>) : memberOf(undefined, {})));
}

/** One CSV line into fields (double quotes, "" inside them). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = "", quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { out.push(cur); cur = ""; } else cur += c;
  }
  out.push(cur);
  return out.map((f) => f.trim());
}

/** members.csv: a header row naming address (and optionally name, vars, subscribed), or address,name rows. */
export function readCsv(text: string, subscribedDefault: boolean): ListMember[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const head = csvFields(lines[0] ?? "").map((h) => h.toLowerCase());
  const hasHeader = head.includes("address");
  const cols = hasHeader ? head : ["address", "name"];
  return (hasHeader ? lines.slice(1) : lines).map((line) => {
    const f = csvFields(line);
    const at = (name: string) => { const i = cols.indexOf(name); return i >= 0 ? f[i] : undefined; };
    return memberOf(at("address"), { name: at("name") || undefined, vars: at("vars") || undefined, subscribed: at("subscribed") || undefined }, subscribedDefault);
  });
}
