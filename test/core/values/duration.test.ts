import { describe, expect, test } from "bun:test";
import { parseDuration, parseLimit } from "../../../src/core/values/duration.ts";

describe("parseDuration", () => {
  test("reads each unit and sums compound durations", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("5m")).toBe(300_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("5d")).toBe(432_000_000);
    expect(parseDuration("1w")).toBe(604_800_000);
    expect(parseDuration(" 1h30m ")).toBe(5_400_000);
    expect(parseDuration("1.5s")).toBe(1500);
  });
  test("is null for anything that is not a duration", () => {
    for (const bad of ["", "5", "5 m", "m5", "5y", "-5s", "5s!"]) expect(parseDuration(bad)).toBeNull();
  });
});

describe("parseLimit", () => {
  test("reads N per a calendar word or a duration", () => {
    expect(parseLimit("100/day")).toEqual({ max: 100, window: "day" });
    expect(parseLimit(" 5 / hour ")).toEqual({ max: 5, window: "hour" });
    expect(parseLimit("1000/month")).toEqual({ max: 1000, window: "month" });
    expect(parseLimit("20/30m")).toEqual({ max: 20, window: "30m" });
  });
  test("is null when malformed", () => {
    for (const bad of ["100", "100/", "/day", "x/day", "100/week", "100/5y"]) expect(parseLimit(bad)).toBeNull();
  });
});
