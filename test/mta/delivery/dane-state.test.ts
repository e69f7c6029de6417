// The DANE switch as the delivery decision reads it (active) and /healthz reports it (health).
// The real resolver probe against validating and non-validating resolvers: test/dns/dnssec.test.ts
// and dane-delivery.test.ts; here the probe's outcome is given, to follow the state across changes.
import { describe, expect, test } from "bun:test";
import { createDaneState } from "../../../src/mta/delivery/dane-state.ts";
import type { DnssecProbe } from "../../../src/dns/dnssec.ts";

const validates: DnssecProbe = { state: "on", reason: "the root DNSKEY is validated (AD)" };
const doesNot: DnssecProbe = { state: "off", reason: "the resolver's root DNSKEY answered without AD" };

describe("DANE in force", () => {
  test("auto follows each probe; active() agrees with health() after every change", async () => {
    let next: DnssecProbe | Error = validates;
    const seen: string[] = [];
    const s = createDaneState({ mode: "auto", probe: async () => { if (next instanceof Error) throw next; return next; }, onChange: (h) => seen.push(h.state) });
    expect(s.active()).toBe(false);
    expect(s.health()).toEqual({ mode: "auto", state: "off", reason: "the resolver probe has not run yet" });
    await s.probe();
    expect([s.active(), s.health().state]).toEqual([true, "on"]);
    next = doesNot;
    await s.probe();
    expect([s.active(), s.health()]).toEqual([false, { mode: "auto", state: "off", reason: doesNot.reason }]);
    next = validates;
    await s.probe();
    expect(s.active()).toBe(true);
    next = new Error("timeout");
    await s.probe();
    expect([s.active(), s.health().reason]).toEqual([false, "the resolver probe failed: Error: timeout"]);
    expect(seen).toEqual(["on", "off", "on", "off"]);
  });
  test("on stays in force whatever the probe says, saying why mail may still go opportunistic", async () => {
    const s = createDaneState({ mode: "on", probe: async () => doesNot });
    expect(s.active()).toBe(true);
    await s.probe();
    expect(s.active()).toBe(true);
    expect(s.health().reason).toContain("without AD every MX counts as insecure");
  });
  test("off never is, even after a passing probe", async () => {
    const s = createDaneState({ mode: "off", probe: async () => validates });
    await s.probe();
    expect([s.active(), s.health()]).toEqual([false, { mode: "off", state: "off", reason: "[mta] dane = \"off\"" }]);
  });
  test("health() hands out a copy: a caller's change does not switch DANE", () => {
    const s = createDaneState({ mode: "on", probe: async () => validates });
    (s.health() as { state: string }).state = "off";
    expect(s.health().state).toBe("on");
  });
});
