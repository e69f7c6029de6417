import { describe, expect, test } from "bun:test";
import { checkEgressChoice, createEgressDirectory } from "../../../src/core/egress/directory.ts";

const src = (source_address: string, warmup_start = "", ehlo = "") => ({ source_address, ehlo, warmup_start });

describe("the egress directory", () => {
  test("without configuration: one default pool of the machine's default address", () => {
    const d = createEgressDirectory({ egress: {}, pools: {} }, "mta.test");
    expect(d.poolNames()).toEqual(["default"]);
    expect(d.pool("default")).toEqual([{ name: "default", address: null, ehlo: "mta.test", warmupStart: null, pool: "default" }]);
    expect(d.status(Date.parse("2026-11-26T10:00:00Z"), {})).toEqual([
      { name: "default", address: "0.0.0.0", pool: "default", warmup_day: null, hour_cap: null, hour_sent: 0, waits_until: null }]);
  });

  test("configured pools; EHLO defaults to mta.hostname; a source outside any pool has none", () => {
    const d = createEgressDirectory({ egress: { a: src("127.0.0.2", "2026-11-26", "a.test"), b: src("127.0.0.3"), c: src("127.0.0.4") },
      pools: { default: { sources: ["a", "b"] } } }, "mta.test");
    expect(d.pool("default")!.map((s) => [s.name, s.ehlo])).toEqual([["a", "a.test"], ["b", "mta.test"]]);
    expect(d.source("c")!.pool).toBeNull();
    expect(d.byAddress("127.0.0.4")!.name).toBe("c");
    expect(d.status(Date.parse("2026-11-27T10:00:00Z"), { a: 5 })[0]).toEqual(
      { name: "a", address: "127.0.0.2", pool: "default", warmup_day: 2, hour_cap: 28, hour_sent: 5, waits_until: null });
    // At its cap: it sends again at the top of the next UTC hour.
    expect(d.status(Date.parse("2026-11-27T10:20:00Z"), { a: 28 })[0]!.waits_until).toBe("2026-11-27T11:00:00.000Z");
  });

  test("a message's pool, else its domain's, else the default", () => {
    const d = createEgressDirectory({ egress: {}, pools: {} }, "h");
    expect([d.poolFor("x", "y"), d.poolFor(undefined, "y"), d.poolFor("", ""), d.poolFor(null, null)]).toEqual(["x", "y", "default", "default"]);
  });

  test("named pools and addresses must exist", () => {
    const d = createEgressDirectory({ egress: { a: src("127.0.0.2") }, pools: { bulk: { sources: ["a"] } } }, "h");
    expect(() => checkEgressChoice({ ipPool: "bulk", sendingIp: "127.0.0.2" }, d)).not.toThrow();
    expect(() => checkEgressChoice({ ipPool: "default" }, d)).not.toThrow();
    expect(() => checkEgressChoice({ ipPool: "x" }, d)).toThrow(/unknown ip pool "x"/);
    expect(() => checkEgressChoice({ sendingIp: "10.0.0.1" }, d)).toThrow(/unknown sending ip/);
  });
});
