// Whether DANE is in force: [mta] dane = "off" never, "on" always (with a resolver that does not
// validate no answer carries AD, so every MX counts as insecure and mail goes opportunistic, as
// Postfix does), "auto" only while the resolver probe (src/dns/dnssec.ts probeDnssec) passes. The
// probe runs at start and hourly; /healthz and the doctor's `dnssec` check report its outcome.
import type { DnssecProbe } from "../../dns/dnssec.ts";

export type DaneMode = "auto" | "on" | "off";
export interface DaneHealth { mode: DaneMode; state: "on" | "off"; reason: string }

const PROBE_EVERY_MS = 3_600_000;

function healthOf(mode: DaneMode, probe: DnssecProbe | null): DaneHealth {
  if (mode === "off") return { mode: "off", state: "off", reason: "[mta] dane = \"off\"" };
  if (!probe) return { mode, state: mode === "on" ? "on" : "off", reason: "the resolver probe has not run yet" };
  if (mode === "on") {
    return { mode: "on", state: "on", reason: probe.state === "on" ? probe.reason
      : `${probe.reason}; without AD every MX counts as insecure and mail goes with opportunistic TLS` };
  }
  return { mode: "auto", state: probe.state, reason: probe.reason };
}

export function createDaneState(deps: { mode: DaneMode; probe: () => Promise<DnssecProbe>; onChange?: (h: DaneHealth) => void }) {
  let timer: ReturnType<typeof setInterval> | null = null;
  // Worked out when the probe's outcome changes, not per message: active() is asked per delivery decision.
  let current = healthOf(deps.mode, null);
  let inForce = current.state === "on";

  async function runProbe(): Promise<DaneHealth> {
    let probe: DnssecProbe;
    try { probe = await deps.probe(); } catch (e) { probe = { state: "off", reason: `the resolver probe failed: ${String(e)}` }; }
    current = healthOf(deps.mode, probe);
    inForce = current.state === "on";
    deps.onChange?.(current);
    return current;
  }

  return {
    /** True when TLSA look-ups are made for MX hosts. */
    active: () => inForce,
    health: (): DaneHealth => ({ ...current }),
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
