// Builds the context of one run: the resolver, the probe target, the egress addresses and "this
// server's addresses" (contract §13: `[doctor] public_addresses`, else the egress addresses and
// mta.hostname's A/AAAA), each looked up once per run.
import type { Resolver } from "../dns.ts";
import { addressesOf } from "./lookup.ts";
import { createBlocklistLookup, type BlocklistZones } from "./blocklists/lookup.ts";
import type { DoctorContext, EgressSubject } from "./types.ts";

export interface ContextDeps {
  resolver: Resolver;
  now: () => number;
  probeTimeoutMs: number;
  mtaHostname: string;
  /** `[doctor] port25_probe`, "host:port" (port 25 when absent). */
  port25Probe: string;
  publicAddresses: readonly string[];
  /** The configured egress sources; address null is the machine's default address. */
  egressSources: readonly { address: string | null; ehlo: string }[];
  publishedKeys: DoctorContext["publishedKeys"];
  httpsTracking: boolean;
  blocklists: BlocklistZones;
  dnssec: DoctorContext["dnssec"];
}

export function splitProbe(spec: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(spec) ?? /^([^:]+)(?::(\d+))?$/.exec(spec);
  return m ? { host: m[1]!, port: Number(m[2] ?? 25) } : { host: spec, port: 25 };
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= fn());
}

export function createDoctorContext(d: ContextDeps): DoctorContext {
  const hostAddresses = once(async () => {
    const found = await addressesOf(d.resolver, d.mtaHostname);
    return found.ok ? found.records : [];
  });
  const egress = once(async (): Promise<EgressSubject[]> => {
    const out = new Map<string, EgressSubject>();
    for (const s of d.egressSources) {
      // The machine's default address is not known to the process: the public addresses say it, else mta.hostname's.
      const addresses = s.address ? [s.address] : d.publicAddresses.length ? [...d.publicAddresses] : await hostAddresses();
      for (const a of addresses) if (!out.has(a)) out.set(a, { kind: "egress", name: a, address: a, ehlo: s.ehlo });
    }
    return [...out.values()];
  });
  const serverAddresses = once(async () => new Set(d.publicAddresses.length ? d.publicAddresses
    : [...(await egress()).map((e) => e.address), ...await hostAddresses()]));
  return {
    resolver: d.resolver, now: d.now, probeTimeoutMs: d.probeTimeoutMs, mtaHostname: d.mtaHostname,
    port25: splitProbe(d.port25Probe), serverAddresses, egress, publishedKeys: d.publishedKeys, httpsTracking: d.httpsTracking,
    blocklists: createBlocklistLookup(d.resolver, d.blocklists), dnssec: d.dnssec,
  };
}
