// Durations ("500ms", "30s", "5m", "2h", "5d", "1w") and sending limits ("N/window") → milliseconds, as the config file and a domain's limit write them.
// A value parser of the core: config (above) and core services (limits, domains) both read these.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses "90s", "1h30m" or "5d"; null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(s)) return null;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return Math.round(total);
}

/** Parses a sending limit "N/M" (N messages per M: hour, day, month, or a duration); null when malformed. */
export function parseLimit(text: string): { max: number; window: string } | null {
  const m = /^(\d+)\s*\/\s*(\S+)$/.exec(text.trim());
  if (!m) return null;
  const window = m[2]!;
  if (!["hour", "day", "month"].includes(window) && parseDuration(window) === null) return null;
  return { max: Number(m[1]), window };
}
