// Composition of what looks after the mail once it has left (contract §13): the doctor and its
// blocklist watch, the webhook notices of listings, and the alerts. app.ts hands in what it built;
// this file only wires them to one another, so the composition root stays one screen of pairs.
import type { Config } from "./config/load.ts";
import type { Logger } from "./log.ts";
import type { Store } from "./core/store-port.ts";
import type { Domain, SendRequest } from "./core/model.ts";
import type { EgressDirectory } from "./core/egress/directory.ts";
import type { AuditWriter } from "./core/audit.ts";
import { createSystemResolver, type Resolver } from "./dns.ts";
import { systemPrincipal } from "./core/account.ts";
import { defaultTrackingHost, trackingHostOf } from "./core/tracking-host-rules.ts";
import { createDoctorService } from "./doctor/index.ts";
import { createDkimRotation } from "./core/dkim-rotation.ts";
import { createNoticePoster } from "./webhooks/notices.ts";
import { createAlerts } from "./alerts/index.ts";
import { alertSourcesOf } from "./alerts/sources.ts";
import { observationOfChange } from "./alerts/doctor-feed.ts";

type AlertSourceDeps = Parameters<typeof alertSourcesOf>[0];

export interface WatcherDeps {
  config: Config; store: Store; now: () => number; log: Logger; mtaHostname: string; signingKey: string;
  /** The app's shared resolver (alerts); the doctor gets its own uncached one unless tests give one. */
  resolver: Resolver; testResolver?: Resolver;
  egress: EgressDirectory;
  domains: { get: (name: string) => Promise<Domain | null>; list: () => Promise<Domain[]> };
  activity: AlertSourceDeps["activity"]; queue: AlertSourceDeps["queue"]; certificate: AlertSourceDeps["certificate"];
  send: { send: (principal: ReturnType<typeof systemPrincipal>, req: SendRequest) => Promise<unknown> };
  stopping: () => boolean;
  /** Records key changes made by a person (CLI, API); the tick's own changes have no actor and are not recorded. */
  audit?: AuditWriter;
  /** Wakes the webhook pipeline when a notice is written. */
  events: Parameters<ReturnType<typeof createNoticePoster>["subscribe"]>[0];
}

export function createWatchers(w: WatcherDeps) {
  const { config, store, now, log } = w;
  // The doctor asks DNS afresh each run (no cache) with short timeouts: an unanswered probe is unknown.
  const freshResolver = w.testResolver ?? createSystemResolver(config.mta.dns_servers, { now, timeoutMs: 2000, maxTtlSeconds: 0, negativeTtlSeconds: 0 });
  // The DKIM key lifecycle: its tick and the doctor's dkim check promote pending keys; alerts (made below,
  // told only once running) hear how long they wait.
  const dkimKeys = createDkimRotation({ control: store.control, resolver: freshResolver, now, rotateAfterMs: config.dkim.rotate_after,
    retireAfterMs: config.dkim.retire_after, audit: w.audit, observe: (o) => alerts.observe(o), onError: (e) => log.warn("dkim key lifecycle", { error: String(e) }) });
  const doctor = createDoctorService({ config, now, mtaHostname: w.mtaHostname, egressSources: w.egress.sources, history: store.control,
    log: log.child("doctor"), listDomains: w.domains.list, getDomain: w.domains.get, getDkimKeys: store.control.getDkimKeys,
    resolver: freshResolver, publishedKeys: dkimKeys.published,
    trackingHostOf: async (name) => { const d = await w.domains.get(name); return d ? trackingHostOf(d) : defaultTrackingHost(name); } });
  // Blocklist listings become notices on the native webhooks; posts wake the webhook pipeline.
  const notices = createNoticePoster({ store, now, getDomain: w.domains.get });
  notices.subscribe(w.events);
  doctor.subscribe(notices);
  // Alerts (docs/alerts.md): read every minute once started; the doctor's changes are observations.
  const listDomains = () => store.control.listDomains();
  const alerts = createAlerts({ config, store: store.control, resolver: w.resolver, now, log: log.child("alerts"), mtaHostname: w.mtaHostname,
    signingKey: w.signingKey, stopping: w.stopping, domains: listDomains, send: (req) => w.send.send(systemPrincipal("alerts"), req),
    ...alertSourcesOf({ activity: w.activity, now, domains: listDomains, queue: w.queue, certificate: w.certificate,
      certificateName: config.tls.hostnames[0] ?? new URL(config.server.public_url).hostname }) }, { intervalMs: config.alerts.interval });
  // Awaited by the run, so a run has alerted on what it found by the time it returns.
  doctor.onChange(async (c) => { const o = observationOfChange(c); if (o) await alerts.observe(o); });
  return { doctor, alerts, dkimKeys };
}
