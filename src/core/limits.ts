// Sending limits ("N per hour/day/month/duration"): where the current window starts.
import { parseDuration } from "./values/duration.ts";

/** Start of the window that contains `now`: calendar hour/day/month in UTC, or a sliding duration. */
export function windowStart(window: string, now: number): number {
  const d = new Date(now);
  switch (window) {
    case "hour": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case "day": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case "month": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    default: return now - (parseDuration(window) ?? 30 * 86_400_000);
  }
}
