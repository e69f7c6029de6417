// The doctor built from the config: the two injection points other rooms replace later are here,
// `publishedKeys(domain)` (the keys a domain publishes: today its DKIM keys, later the key
// lifecycle's published ones) and `trackingHostOf(domain)` (default `email.<domain>`, contract §13).
import { createDnssecClient, type Resolver } from "../dns.ts";
import type { Domain, DkimKey } from "../core/model.ts";
import type { BlocklistStore } from "../core/blocklist-port.ts";
import { dkimRecordValue, publishedDkimKeys } from "../core/dkim-keys.ts";
import { bounceDomainFor } from "../core/domain-dns.ts";
import { createDoctorContext } from "./context.ts";
import { createDoctor } from "./service.ts";
import type { DomainSubject } from "./types.ts";

export interface DoctorConfig {
  doctor: { interval: number; port25_probe: string; public_addresses: readonly string[] };
  blocklists: { ip_zones: readonly string[]; domain_zones: readonly string[]; spamhaus_dqs_key: string };
  mta: { bounce_domain: string; dane: "auto" | "on" | "off"; dnssec_broken_probe: string; dns_servers: string[] };
  server: { public_url: string };
}

export interface DoctorWiring {
  config: DoctorConfig;
  resolver: Resolver;
  now: () => number;
  mtaHostname: string;
  egressSources: readonly { address: string | null; ehlo: string }[];
  listDomains(): Promise<Domain[]>;
  getDomain(name: string): Promise<Domain | null>;
  getDkimKeys(domainId: number): Promise<DkimKey[]>;
  history: BlocklistStore;
  /** The tracking host of a domain; default `email.<domain>`. */
  trackingHostOf?: (domain: string) => string | Promise<string>;
  /** The keys a domain publishes with the TXT each should carry; default: its DKIM keys (`dkimKeysPublished`). */
  publishedKeys?: (domain: string) => Promise<{ selector: string; record: string; pending?: boolean }[]>;
  probeTimeoutMs?: number;
  log?: { error(msg: string, fields?: Record<string, unknown>): void; info?(msg: string, fields?: Record<string, unknown>): void };
}

export const defaultTrackingHost = (domain: string) => `email.${domain}`;

/** The keys a domain publishes, with the record each should carry: its pending, active and retiring DKIM keys
 *  (one function, so that the key lifecycle can hand in its published keys instead). */
export const dkimKeysPublished = (w: Pick<DoctorWiring, "getDomain" | "getDkimKeys">) => async (domain: string) => {
  const d = await w.getDomain(domain);
  return d ? publishedDkimKeys(await w.getDkimKeys(d.id)).map((k) => ({ selector: k.selector, record: dkimRecordValue(k) })) : [];
};

export function createDoctorService(w: DoctorWiring) {
  const publishedKeys = w.publishedKeys ?? dkimKeysPublished(w);
  const trackingHostOf = w.trackingHostOf ?? defaultTrackingHost;
  const domains = async (): Promise<DomainSubject[]> => Promise.all((await w.listDomains()).map(async (d) => ({
    kind: "domain" as const, name: d.name, bounceDomain: bounceDomainFor(d.name, w.config.mta.bounce_domain), trackingHost: await trackingHostOf(d.name),
  })));
  return createDoctor({
    now: w.now, domains, history: w.history, zones: w.config.blocklists, intervalMs: w.config.doctor.interval, log: w.log,
    context: () => createDoctorContext({
      resolver: w.resolver, now: w.now, probeTimeoutMs: w.probeTimeoutMs ?? 5000, mtaHostname: w.mtaHostname,
      port25Probe: w.config.doctor.port25_probe, publicAddresses: w.config.doctor.public_addresses, egressSources: w.egressSources,
      publishedKeys, httpsTracking: w.config.server.public_url.startsWith("https:"), blocklists: w.config.blocklists,
      dnssec: { mode: w.config.mta.dane,
        probe: () => createDnssecClient(w.config.mta.dns_servers, { timeoutMs: 2000 }).probe(w.config.mta.dnssec_broken_probe) },
    }),
  });
}

export { CHECK_IDS } from "./registry.ts";
export type { Doctor, DoctorChange, DoctorSubscriber } from "./service.ts";
export type { CheckResult } from "./types.ts";
