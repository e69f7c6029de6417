// Time buckets of SparkPost's time-series metrics, aligned in the query's time zone: minutes and
// hours on the clock, days at local midnight, weeks from Monday, months from the 1st.
import type { Precision } from "./metrics-query.ts";
import { zoneOffset } from "./metrics-query.ts";

const MINUTE = 60_000;
const STEPS: Partial<Record<Precision, number>> = { "1min": MINUTE, "5min": 5 * MINUTE, "15min": 15 * MINUTE, hour: 60 * MINUTE, "12hr": 720 * MINUTE };

/** UTC ms of the local wall-clock time `local` (ms as if UTC) in `tz`. */
const fromLocal = (local: number, tz: string) => local - zoneOffset(tz, local - zoneOffset(tz, local));

/** The start (UTC ms) of the bucket holding `utc`. */
export function bucketStart(utc: number, p: Precision, tz: string): number {
  const local = utc + zoneOffset(tz, utc);
  const step = STEPS[p];
  if (step) return fromLocal(Math.floor(local / step) * step, tz);
  const d = new Date(local);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (p === "day") return fromLocal(day, tz);
  if (p === "week") return fromLocal(day - ((d.getUTCDay() + 6) % 7) * 86_400_000, tz);
  return fromLocal(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), tz);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, p: Precision, tz: string): number {
  const step = STEPS[p];
  if (step) return start + step;
  const d = new Date(start + zoneOffset(tz, start));
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (p === "day") return fromLocal(Date.UTC(y, m, day + 1), tz);
  if (p === "week") return fromLocal(Date.UTC(y, m, day + 7), tz);
  return fromLocal(Date.UTC(y, m + 1, 1), tz);
}

/** `utc` as SparkPost writes a bucket's ts: local time with its offset, e.g. 2024-05-01T08:00:00+00:00. */
export function formatTs(utc: number, tz: string): string {
  const off = zoneOffset(tz, utc);
  const local = new Date(utc + off).toISOString().slice(0, 19);
  const sign = off < 0 ? "-" : "+";
  const abs = Math.abs(off) / MINUTE;
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
