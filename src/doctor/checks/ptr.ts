// ptr: per egress address, exactly one PTR, equal to the EHLO name used there, whose A/AAAA holds
// the address again (forward-confirmed reverse DNS; Gmail refuses IPv6 mail without it).
import { reverseName } from "../../dns.ts";
import { addressesOf, causeText, looked, type Looked } from "../lookup.ts";
import { defineCheck, type DoctorContext, type EgressSubject, type Verdict } from "../types.ts";

export interface PtrFacts { ptr: Looked<string>; forward: Looked<string> | null }

const norm = (n: string) => n.toLowerCase().replace(/\.$/, "");

export async function lookPtr(ctx: DoctorContext, s: EgressSubject): Promise<PtrFacts> {
  const name = reverseName(s.address);
  const ask = ctx.resolver.ptr?.bind(ctx.resolver);
  const ptr: Looked<string> = !name ? { ok: false, missing: false, cause: "not an IP address" }
    : !ask ? { ok: false, missing: false, cause: "this resolver cannot ask for PTR records" } : await looked(() => ask(name));
  const forward = ptr.ok && ptr.records.length === 1 ? await addressesOf(ctx.resolver, ptr.records[0]!) : null;
  return { ptr, forward };
}

export function judgePtr(f: PtrFacts, s: EgressSubject): Verdict {
  const fix = `at the provider of ${s.address} (its control panel or support), set the reverse DNS (PTR) of ${s.address} to ${s.ehlo}, and give ${s.ehlo} an A/AAAA record of ${s.address}`;
  const data: Record<string, unknown> = { address: s.address, ehlo: s.ehlo, ptr: f.ptr.ok ? f.ptr.records : [] };
  if (!f.ptr.ok) {
    return f.ptr.missing ? { severity: "error", summary: `${s.address} has no PTR record`, fix, data }
      : { severity: "unknown", summary: `the PTR of ${s.address} could not be looked up: ${causeText(f.ptr.cause)}`, fix: "check [mta] dns_servers and retry", data };
  }
  if (f.ptr.records.length > 1) return { severity: "error", summary: `${s.address} has ${f.ptr.records.length} PTR records (${f.ptr.records.join(", ")}); receivers expect one`, fix, data };
  const name = norm(f.ptr.records[0]!);
  if (name !== norm(s.ehlo)) return { severity: "error", summary: `the PTR of ${s.address} is ${name}, not its EHLO name ${s.ehlo}`, fix, data };
  const fwd = f.forward!;
  data.forward = fwd.ok ? fwd.records : [];
  if (!fwd.ok && !fwd.missing) return { severity: "unknown", summary: `${name}'s A/AAAA could not be looked up: ${causeText(fwd.cause)}`, fix: "check [mta] dns_servers and retry", data };
  if (!fwd.ok || !fwd.records.includes(s.address)) {
    return { severity: "error", summary: `${name} (the PTR of ${s.address}) does not resolve back to ${s.address}`, fix: `add an A/AAAA record ${name} → ${s.address}`, data };
  }
  return { severity: "ok", summary: `${s.address} ↔ ${name}`, fix: "", data };
}

export const ptr = defineCheck<EgressSubject, PtrFacts>({ id: "ptr", over: "egress", look: lookPtr, judge: judgePtr,
  absent: "no egress address is known, so no PTR could be checked" });
