// `[mta.shaping]`: the default destination's limits, providers (built-in ones overridden by name,
// new ones added) and automation rules, checked here so a bad file is refused at start with the
// key and the reason. The MTA turns the result into its shaping tables (src/mta/shaping/setup.ts).
import { parseDuration } from "../core/values/duration.ts";

export interface Rate { count: number; perMs: number; text: string }

export interface LimitsConfig { connections?: number; initial_connections?: number; messages_per_connection?: number; rate?: Rate | null }
export interface ProviderConfig extends LimitsConfig { match?: string[] }
export interface AutomationConfig { provider: string; match: string; action: "suspend" | "throttle"; duration: number }
export interface ShapingConfig { default: LimitsConfig; providers: Record<string, ProviderConfig>; automation: AutomationConfig[] }

export const emptyShaping = (): ShapingConfig => ({ default: {}, providers: {}, automation: [] });

const UNITS: Record<string, number> = { s: 1_000, sec: 1_000, m: 60_000, min: 60_000, h: 3_600_000, hr: 3_600_000, d: 86_400_000 };

/** "100/s", "5000/h", "10/min" → a Rate; "" → null; anything else → undefined. */
export function parseRate(text: string): Rate | null | undefined {
  if (text.trim() === "") return null;
  const m = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const perMs = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || !perMs || Number(m[1]) <= 0) return undefined;
  return { count: Number(m[1]), perMs, text: text.trim() };
}

type Raw = Record<string, unknown>;
const isTable = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);
const LIMIT_KEYS = ["connections", "initial_connections", "messages_per_connection", "rate"];

function limits(body: Raw, at: string, problems: string[], extra: string[] = []): ProviderConfig {
  const out: ProviderConfig = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "rate") {
      const r = typeof value === "string" ? parseRate(value) : undefined;
      if (r === undefined) problems.push(`${at}.rate: expected "N/s", "N/min", "N/h" or "", got ${JSON.stringify(value)}`);
      else out.rate = r;
    } else if (key === "match" && extra.includes("match")) {
      if (Array.isArray(value) && value.length && value.every((v) => typeof v === "string" && /^[a-z0-9.-]+$/i.test(v))) out.match = (value as string[]).map((v) => v.toLowerCase());
      else problems.push(`${at}.match: expected a non-empty array of domain suffixes`);
    } else if (LIMIT_KEYS.includes(key)) {
      if (Number.isInteger(value) && (value as number) >= 1) (out as Record<string, unknown>)[key] = value;
      else problems.push(`${at}.${key}: expected a whole number of at least 1, got ${JSON.stringify(value)}`);
    } else problems.push(`${at}.${key}: unknown key`);
  }
  return out;
}

function automation(rule: unknown, at: string, problems: string[]): AutomationConfig | null {
  if (!isTable(rule)) { problems.push(`${at}: expected a table`); return null; }
  const bad = (why: string) => { problems.push(`${at}: ${why}`); return null; };
  for (const key of Object.keys(rule)) if (!["provider", "match", "action", "duration"].includes(key)) return bad(`${key}: unknown key`);
  const { provider = "*", match, action, duration } = rule as Record<string, unknown>;
  if (typeof provider !== "string" || !provider) return bad("provider: expected a provider name or \"*\"");
  if (typeof match !== "string" || !match) return bad("match: expected a regular expression");
  try { new RegExp(match); } catch (e) { return bad(`match: not a regular expression: ${(e as Error).message}`); }
  if (action !== "suspend" && action !== "throttle") return bad(`action: expected "suspend" or "throttle", got ${JSON.stringify(action)}`);
  const ms = typeof duration === "string" ? parseDuration(duration) : null;
  if (ms === null) return bad(`duration: expected a duration such as "30m" or "2h", got ${JSON.stringify(duration)}`);
  return { provider, match, action, duration: ms };
}

/** Reads the `shaping` table of [mta]; problems are pushed with `where` and the key. */
export function parseShaping(raw: unknown, where: string, problems: string[]): ShapingConfig {
  const out = emptyShaping();
  if (!isTable(raw)) { problems.push(`${where}: mta.shaping: expected a table`); return out; }
  for (const [key, value] of Object.entries(raw)) {
    const at = `${where}: mta.shaping.${key}`;
    if (key === "default" && isTable(value)) out.default = limits(value, at, problems);
    else if (key === "providers" && isTable(value)) {
      for (const [name, body] of Object.entries(value)) {
        if (!isTable(body) || !/^[a-z0-9_-]+$/i.test(name)) { problems.push(`${at}.${name}: expected a table named with letters, digits, - or _`); continue; }
        out.providers[name] = limits(body, `${at}.${name}`, problems, ["match"]);
      }
    } else if (key === "automation" && Array.isArray(value)) {
      value.forEach((rule, i) => { const r = automation(rule, `${at}[${i}]`, problems); if (r) out.automation.push(r); });
    } else problems.push(`${at}: unknown key (default, providers or automation)`);
  }
  return out;
}
