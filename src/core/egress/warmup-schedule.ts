// The automated warm-up schedule: the most messages one new sending address may send in an hour,
// by the day of its warm-up. Data, not a formula: these are SendGrid's published "Automated IP
// warmup hourly send schedule" numbers (docs.sendgrid.com/ui/sending-email/warming-up-an-ip-address,
// read from github.com/sendgrid/docs content/docs/ui/sending-email/warming-up-an-ip-address.md;
// there "Warmup Age (Days)" 0 is our day 1). The contract says no cap from day 42: the table's last
// row (age 41, 19,601,056 an hour) is never reached in practice, and from day 42 the address is warm.

export const HOURLY_CAPS: readonly number[] = [
  20, 28, 39, 55, 77, 108, 151, 211, 295, 413,
  579, 810, 1_000, 1_587, 2_222, 3_111, 4_356, 6_098, 8_583, 11_953,
  16_734, 23_427, 32_798, 45_917, 64_284, 89_998, 125_997, 176_395, 246_953, 345_735,
  484_029, 677_640, 948_696, 1_328_175, 1_859_444, 2_603_222, 3_644_511, 5_102_316, 7_143_242, 10_000_539,
  14_000_754,
];

/** The first warm day: from it on an address has no cap. */
export const WARM_FROM_DAY = 42;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** "2026-11-26" → its UTC midnight in ms, or null when it is not a real calendar date. */
export function parseWarmupStart(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(at).toISOString().startsWith(text) ? at : null;
}

/**
 * The warm-up day at `now` (UTC calendar days; the start date is day 1), or null when the address
 * is warm: no start date, or day 42 and later. Before the start date it is day 1 (a new address is
 * never warmer than on its first day).
 */
export function warmupDay(startMs: number | null, now: number): number | null {
  if (startMs === null) return null;
  const day = Math.floor((Math.floor(now / DAY_MS) * DAY_MS - startMs) / DAY_MS) + 1;
  return day >= WARM_FROM_DAY ? null : Math.max(1, day);
}

/** The hourly cap on `day` (from warmupDay), or null when warm. */
export function hourlyCap(day: number | null): number | null {
  return day === null ? null : HOURLY_CAPS[day - 1]!;
}

/** The UTC hour `now` falls in, as hours since the epoch: the key of the send counters. */
export const hourOf = (now: number): number => Math.floor(now / HOUR_MS);
export const hourStartMs = (hour: number): number => hour * HOUR_MS;
