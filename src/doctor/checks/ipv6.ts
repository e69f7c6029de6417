// ipv6: an IPv6 egress address without forward-confirmed reverse DNS is an error: Gmail and others
// refuse mail over IPv6 from such an address, whatever they do over IPv4.
import { isIPv6 } from "node:net";
import { defineCheck, type EgressSubject, type Verdict } from "../types.ts";
import { judgePtr, lookPtr, type PtrFacts } from "./ptr.ts";

/** No verdict for an IPv4 address: the check speaks only of IPv6 ones. */
export function judgeIpv6(f: PtrFacts | null, s: EgressSubject): Verdict | [] {
  if (!f) return [];
  const p = judgePtr(f, s);
  if (p.severity === "ok") return { severity: "ok", summary: `IPv6 ${s.address} has a matching PTR`, fix: "", data: p.data };
  return { severity: p.severity === "unknown" ? "unknown" : "error", summary: `IPv6 egress address without a good PTR: ${p.summary}`,
    fix: `${p.fix}, or do not send over IPv6 from it`, data: p.data };
}

export const ipv6 = defineCheck<EgressSubject, PtrFacts | null>({
  id: "ipv6", over: "egress",
  look: async (ctx, s) => (isIPv6(s.address) ? lookPtr(ctx, s) : null),
  judge: judgeIpv6,
});
