// A DNS world that publishes a domain's DKIM records, phase by phase: the app keeps one resolver,
// and each publish() points it at a new dnsmasq answering that phase's selectors.
import { createSystemResolver, type Resolver } from "../../src/dns.ts";
import { dkimRecordValue } from "../../src/core/dkim-keys.ts";
import type { DkimKey } from "../../src/core/model.ts";
import { splitTxt, startDnsmasq, type DnsmasqServer } from "./dnsmasq.ts";

export function createDkimDns(domain: string) {
  let current: Resolver;
  const servers: DnsmasqServer[] = [];
  return {
    /** The resolver to give the app: it follows the last publish(). */
    resolver: new Proxy({} as Resolver, { get: (_, p) => (current as unknown as Record<PropertyKey, unknown>)[p] }),
    /** The resolver of the phase published last. */
    current: () => current,
    async publish(keys: DkimKey[]) {
      const dns = await startDnsmasq(keys.map((k) => ({ type: "TXT" as const, name: `${k.selector}._domainkey.${domain}`, strings: splitTxt(dkimRecordValue(k)) })));
      servers.push(dns);
      current = createSystemResolver([dns.server], { timeoutMs: 1000, maxTtlSeconds: 0, negativeTtlSeconds: 0 });
    },
    async stop() { for (const s of servers) await s.stop(); },
  };
}
