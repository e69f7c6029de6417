// Whether DANE is in force: [mta] dane = "off" never, "on" always (with a resolver that does not
// validate no answer carries AD, so every MX counts as insecure and mail goes opportunistic, as
// Postfix does), "auto" only while the resolver probe (src/dns/dnssec.ts probeDnssec) passes. The
// probe runs at start and hourly; /healthz and the doctor's `dnssec` check report its outcome.
import type { DnssecProbe } from "../../dns/dnssec.ts";

export type DaneMode = "auto" | "on" | "off";
export interface DaneHealth { mode: DaneMode; state: "on" | "off"; reason: string }

const PROBE_EVERY_MS = 3_600_000;

export function createDaneState(deps: { mode: DaneMode; probe: () => Promise<DnssecProbe>; onChange?: (h: DaneHealth) => void }) {
  let probe: DnssecProbe | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  const health = (): DaneHealth => {
    if (deps.mode === "off") return { mode: "off", state: "off", reason: "[mta] dane = \"off\"" };
    if (!probe) return { mode: deps.mode, state: deps.mode === "on" ? "on" : "off", reason: "the resolver probe has not run yet" };
    if (deps.mode === "on") {
      return { mode: "on", state: "on", reason: probe.state === "on" ? probe.reason
        : `${probe.reason}; without AD every MX counts as insecure and mail goes with opportunistic TLS` };
    }
    return { mode: "auto", state: probe.state, reason: probe.reason };
  };

  async function runProbe(): Promise<DaneHealth> {
    try { probe = await deps.probe(); } catch (e) { probe = { state: "off", reason: `the resolver probe failed: ${String(e)}` }; }
    const h = health();
    deps.onChange?.(h);
    return h;
  }

  return {
    /** True when TLSA look-ups are made for MX hosts. */
    active: () => health().state === "on",
    health,
    probe: runProbe,
    /** Probes now and every hour (nothing when off). */
    start() {
      if (deps.mode === "off" || timer) return;
      void runProbe();
      timer = setInterval(() => void runProbe(), PROBE_EVERY_MS);
      (timer as { unref?: () => void }).unref?.();
    },
    stop() { if (timer) clearInterval(timer); timer = null; },
  };
}

export type DaneState = ReturnType<typeof createDaneState>;
