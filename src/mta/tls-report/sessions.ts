// Counts outbound TLS sessions for TLS-RPT (RFC 8460 §4.3): every delivery attempt that reached a
// TLS decision is one session under its MX host's policy (dane.ts): "tlsa" for DANE, "sts" for
// MTA-STS enforce, else "no-policy-found"; a success, or a failure by result-type. Counts are kept
// in memory and added to the store in batches (one write per flush, not per message).
import type { Store } from "../../core/store-port.ts";
import type { TlsSessionCount } from "../../core/tls-report-port.ts";
import { dayOf } from "./report.ts";

/**
 * `sendingIp`/`receivingIp`: the local and the MX address of a failed session, when it got that far
 * (RFC 8460 §4.3 failure-details); `policyString`: the lines of the MTA-STS policy applied.
 */
export interface TlsSessionFact {
  domain: string; mxHost: string; policy: "dane" | "mta-sts" | "opportunistic"; result: string; sendingIp?: string; receivingIp?: string; policyString?: string[];
}

const TYPE = { dane: "tlsa", "mta-sts": "sts", opportunistic: "no-policy-found" } as const;
const FLUSH_MS = 10_000;
const MAX_POLICY_CHARS = 2_000;

/** The RFC 8460 §4.3 result-type of a TLS failure, from the error the SMTP client raised. */
export function resultTypeOf(policy: TlsSessionFact["policy"], message: string): string {
  if (/look-up .* (is bogus|failed)/.test(message)) return "dnssec-invalid";
  if (/not offered|STARTTLS refused/.test(message)) return "starttls-not-supported";
  if (/DANE verification failed/.test(message)) return "validation-failure";
  if (/altname|host ?name|does not match/i.test(message)) return "certificate-host-mismatch";
  if (/expired/i.test(message)) return "certificate-expired";
  if (/self[- ]signed|unable to (get|verify)|untrusted/i.test(message)) return policy === "mta-sts" ? "sts-webpki-invalid" : "certificate-not-trusted";
  return "validation-failure";
}

export function createTlsSessionCounter(deps: { store: Store; now: () => number }) {
  let pending = new Map<string, TlsSessionCount & { day: number }>();
  let timer: ReturnType<typeof setInterval> | null = null;

  async function flush(): Promise<void> {
    const batch = [...pending.values()];
    pending = new Map();
    const days = new Set(batch.map((b) => b.day));
    for (const day of days) await deps.store.control.addTlsSessions(day, batch.filter((b) => b.day === day));
  }

  return {
    record(f: TlsSessionFact) {
      const day = dayOf(deps.now());
      // Successes are counted without their IPs: only failure details name them.
      const ips: { sendingIp?: string; receivingIp?: string } = f.result === "success" ? {} : { ...(f.sendingIp ? { sendingIp: f.sendingIp } : {}), ...(f.receivingIp ? { receivingIp: f.receivingIp } : {}) };
      // The policy's lines are part of the stored key: a PostgreSQL index entry holds about 2.7 kB.
      const policyString = f.policyString?.length && f.policyString.join("\n").length <= MAX_POLICY_CHARS ? { policyString: f.policyString } : {};
      const key = [day, f.domain, f.policy, f.mxHost, f.result, ips.sendingIp ?? "", ips.receivingIp ?? "", ...(policyString.policyString ?? [])].join("\u0000");
      const hit = pending.get(key);
      if (hit) hit.count++;
      else pending.set(key, { day, policyDomain: f.domain.toLowerCase(), policyType: TYPE[f.policy], mxHost: f.mxHost.toLowerCase(), result: f.result, ...ips, ...policyString, count: 1 });
    },
    flush,
    start() {
      timer ??= setInterval(() => void flush().catch(() => {}), FLUSH_MS);
      (timer as { unref?: () => void }).unref?.();
    },
    async stop() { if (timer) clearInterval(timer); timer = null; await flush(); },
  };
}

export type TlsSessionCounter = ReturnType<typeof createTlsSessionCounter>;
