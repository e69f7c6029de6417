// Assembles the outbound MTA from config: connection pool, DKIM signer, MTA-STS policy,
// delivery steps and the scheduler loop.
import type { Config } from "../config/load.ts";
import type { Store } from "../core/store-port.ts";
import { createDnssecClient, type DnssecClient, type Resolver } from "../dns.ts";
import { createDaneState } from "./delivery/dane-state.ts";
import { createTlsSessionCounter } from "./tls-report/sessions.ts";
import type { Logger } from "../log.ts";
import type { DkimKey } from "../core/model.ts";
import { signingKeys } from "../core/dkim-keys.ts";
import type { TokenCodec } from "../tracking/token.ts";
import type { Recorder } from "../core/recorder.ts";
import type { RequestLoad } from "../core/request-load.ts";
import { createPool } from "./delivery/pool.ts";
import { createLocalBuilder, type MessageBuilder } from "./message/builder.ts";
import { createWorkerBuilder } from "./message/workers.ts";
import { createTlsPolicy } from "./delivery/tls-policy.ts";
import { createDelivery } from "./delivery/attempt.ts";
import { createScheduler } from "./queue/scheduler.ts";
import { createHoldCheck } from "./queue/holds.ts";
import { createDestinationTable } from "./queue/destinations.ts";
import { shapingFrom } from "./shaping/setup.ts";
import { createEgressSelector } from "./egress/selector.ts";
import type { EgressDirectory } from "../core/egress/directory.ts";
import { withTenantPool } from "../core/tenant-pool.ts";

const KEY_CACHE_MS = 60_000;

export interface MtaDeps {
  config: Config;
  store: Store;
  resolver: Resolver;
  now: () => number;
  log: Logger;
  hostname: string;
  secret: string;
  codec: TokenCodec;
  recorder: Recorder;
  /** This node's id: the owner of its queue claims. */
  nodeId: string;
  /** Open API requests: new deliveries start more slowly while callers wait. */
  requestLoad?: RequestLoad;
  /** DNSSEC look-ups (DANE facts, resolver probe); default: through [mta] dns_servers. */
  dnssec?: DnssecClient;
  /** The egress sources and pools ([mta.egress], [mta.pools]): each attempt binds to one. */
  egress?: EgressDirectory;
  /** The base of a domain's tracking links (core/tracking-hosts.ts linkBase); default server.public_url. */
  linkBaseFor?: (domain: string) => Promise<string>;
}

export function createMta(deps: MtaDeps) {
  const { config, store, now } = deps;
  const keys = new Map<string, { keys: DkimKey[]; at: number }>();
  const keysFor = async (domain: string) => {
    const hit = keys.get(domain);
    if (hit && now() - hit.at < KEY_CACHE_MS) return hit.keys;
    const d = await store.control.getDomain(domain);
    const list = d ? signingKeys(await store.control.getDkimKeys(d.id)) : [];
    keys.set(domain, { keys: list, at: now() });
    return list;
  };
  const shaping = shapingFrom(config.mta);
  // A destination's connections are bounded by the scheduler (its concurrency); several
  // destinations can share a next hop (a smarthost), so the pool bounds only the total.
  const pool = createPool({ hostname: deps.hostname, maxTotal: config.mta.max_connections, maxPerHost: config.mta.max_connections,
    messagesPerConnection: config.mta.messages_per_connection });
  const builder = createBuilder(deps, keysFor);
  const egress = deps.egress ? createEgressSelector({ directory: deps.egress, counters: store.control, now, log: deps.log }) : undefined;
  const dnssec = deps.dnssec ?? createDnssecClient(config.mta.dns_servers, { now });
  const dane = createDaneState({ mode: config.mta.dane, probe: () => dnssec.probe(config.mta.dnssec_broken_probe),
    onChange: (h) => deps.log.info("DANE", { ...h }) });
  // TLS-RPT ([mta] tls_reports): sessions counted per policy domain and MX host.
  const tlsSessions = config.mta.tls_reports ? createTlsSessionCounter({ store, now }) : null;
  const delivery = createDelivery({
    resolver: deps.resolver, routes: config.mta.routes, pool, builder,
    tlsPolicy: createTlsPolicy({ resolver: deps.resolver, now, dane: { active: dane.active, forHost: dnssec.forHost } }), now, log: deps.log,
    verp: { secret: deps.secret, bounceDomain: config.mta.bounce_domain },
    // The domain's pool, else its tenant's (core/tenant-pool.ts).
    domainOf: withTenantPool((name) => store.control.getDomain(name), store.control, now),
    holdOf: createHoldCheck({ store, now, domainOf: (name) => store.control.getDomain(name) }),
    callersWaiting: deps.requestLoad?.busy, egress, ...(tlsSessions ? { onTlsSession: tlsSessions.record } : {}),
  });
  const scheduler = createScheduler({
    store, delivery, now, log: deps.log, recorder: deps.recorder, lease: { owner: deps.nodeId, leaseMs: config.server.claim_lease },
    policy: { schedule: config.mta.retry, lifetimeMs: config.mta.max_queue_lifetime },
    // Recipients beyond what the connections can carry would only wait, holding memory.
    maxInFlight: Math.max(100, config.mta.max_connections),
    destinations: createDestinationTable({ shaping, routes: config.mta.routes, mxHostsOf: (d) => delivery.mxHostsOf(d), now, tlsPoliciesOf: delivery.tlsPoliciesOf,
      onResolved: () => scheduler.poke() }),
  });
  return {
    pool, delivery, scheduler, shaping,
    /** Whether DANE is in force and why (/healthz, the doctor's dnssec check); `dane.start()` probes now and hourly. */
    dane,
    /** TLS sessions counted for TLS-RPT (null unless [mta] tls_reports). */
    tlsSessions,
    /** Stops delivery; with a deadline, connections still busy past it are closed (their recipients stay queued). */
    async stop(deadline?: number) {
      dane.stop();
      await tlsSessions?.stop();
      await scheduler.stop(deadline, () => pool.abortAll());
      pool.closeAll();
      builder.close();
      await egress?.close();
    },
  };
}

/** Signing workers when configured (RSA signing is the MTA's main CPU cost), else the main thread. */
function createBuilder(deps: MtaDeps, keysFor: (domain: string) => Promise<DkimKey[]>): MessageBuilder {
  const compose = { publicUrl: deps.config.server.public_url, codec: deps.codec, hostname: deps.hostname,
    mailbox: { secret: deps.secret, bounceDomain: deps.config.mta.bounce_domain } };
  const workers = deps.config.mta.signing_workers;
  const local = createLocalBuilder({ compose, keysFor, now: deps.now, linkBaseFor: deps.linkBaseFor });
  if (workers === 0) return local;
  const requestLoad = deps.requestLoad;
  return createWorkerBuilder({ workers, keysFor, linkBaseFor: deps.linkBaseFor, now: deps.now, log: deps.log, fallback: local, mayOverflow: requestLoad ? () => !requestLoad.busy() : undefined, init: { publicUrl: compose.publicUrl, secret: deps.secret, hostname: deps.hostname, bounceDomain: deps.config.mta.bounce_domain } });
}

export type Mta = ReturnType<typeof createMta>;
