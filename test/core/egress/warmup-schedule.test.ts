import { describe, expect, test } from "bun:test";
import { HOURLY_CAPS, hourlyCap, hourOf, parseWarmupStart, warmupDay } from "../../../src/core/egress/warmup-schedule.ts";

const at = (iso: string) => Date.parse(iso);

describe("the warm-up schedule", () => {
  test("is SendGrid's published table: 20, 28, 39 ... about x1.4 a day", () => {
    expect(HOURLY_CAPS.slice(0, 6)).toEqual([20, 28, 39, 55, 77, 108]);
    expect(HOURLY_CAPS.length).toBe(41);
    for (let i = 1; i < HOURLY_CAPS.length; i++) expect(HOURLY_CAPS[i]! / HOURLY_CAPS[i - 1]!).toBeGreaterThan(1.2);
  });

  test("days are UTC calendar days, the start date is day 1, day 42 is warm", () => {
    const start = parseWarmupStart("2026-11-26")!;
    expect(warmupDay(start, at("2026-11-26T00:00:00Z"))).toBe(1);
    expect(warmupDay(start, at("2026-11-26T23:59:59Z"))).toBe(1);
    expect(warmupDay(start, at("2026-11-27T00:00:00Z"))).toBe(2);
    expect(warmupDay(start, at("2026-11-25T12:00:00Z"))).toBe(1); // not started yet: never warmer than day 1
    expect(warmupDay(start, at("2027-01-05T12:00:00Z"))).toBe(41);
    expect(warmupDay(start, at("2027-01-06T00:00:00Z"))).toBeNull();
    expect(warmupDay(null, at("2026-11-26T00:00:00Z"))).toBeNull();
  });

  test("caps by day; none when warm", () => {
    expect([1, 2, 3, 41].map(hourlyCap)).toEqual([20, 28, 39, 14_000_754]);
    expect(hourlyCap(null)).toBeNull();
  });

  test("start dates are real calendar dates", () => {
    expect(parseWarmupStart("2026-02-30")).toBeNull();
    expect(parseWarmupStart("26-11-2026")).toBeNull();
    expect(parseWarmupStart("2026-11-26")).toBe(at("2026-11-26T00:00:00Z"));
  });

  test("hours are UTC hours since the epoch", () => {
    expect(hourOf(at("2026-11-26T10:59:59Z"))).toBe(hourOf(at("2026-11-26T10:00:00Z")));
    expect(hourOf(at("2026-11-26T11:00:00Z"))).toBe(hourOf(at("2026-11-26T10:00:00Z")) + 1);
  });
});
