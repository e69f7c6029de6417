// The composition root: builds the store, services, MTA, inbound SMTP, events and the HTTP
// listener from one config. The only file that picks concrete implementations.
import { hostname as osHostname, networkInterfaces } from "node:os";
import type { Config } from "./config/load.ts";
import { openSqliteStore } from "./store/sqlite/index.ts";
import { restoreFiles } from "./store/sqlite/backup.ts";
import { openPostgresStore } from "./store/postgres/index.ts";
import type { ServeLease, Store } from "./core/store-port.ts";
import { withDomainCache } from "./core/domain-read.ts";
import { createSystemResolver, type Resolver } from "./dns.ts";
import { createLogger, createRecentErrors, type Logger } from "./log.ts";
import { createMetrics } from "./metrics.ts";
import { createAccessService } from "./core/access.ts";
import { createAuditLog } from "./core/audit.ts";
import { createThrottle } from "./core/throttle.ts";
import { createRateLimiter } from "./core/rate-limit.ts";
import { createDomainService } from "./core/domains.ts";
import { spfMechanism } from "./core/domain-dns.ts";
import { ensureAccount } from "./core/account.ts";
import { createWatchers } from "./app-watchers.ts";
import { createSendService } from "./core/send.ts";
import { createRecorder } from "./core/recorder.ts";
import { createHttpHandler } from "./api/server.ts";
import { createClientIp } from "./api/client-ip.ts";
import { createTokenCodec } from "./tracking/token.ts";
import { createMta } from "./mta/index.ts";
import { createEgressDirectory } from "./core/egress/directory.ts";
import { createEgressService, registerEgressMetrics } from "./core/egress/service.ts";
import { createRequestLoad } from "./core/request-load.ts";
import { createSuppressionService } from "./core/suppressions.ts";
import { createUnsubscribeGroupService } from "./core/unsubscribe-groups.ts";
import { createSendBatchService } from "./core/send-batches.ts";
import { createWebhookService } from "./core/webhooks.ts";
import { createSpamCheck } from "./webhooks/spam-check.ts";
import { createActivityService } from "./core/activity.ts";
import { createValidator } from "./validation/verdict.ts";
import { createSmtpProber } from "./validation/smtp-probe.ts";
import type { SurfaceDeps } from "./api/deps.ts";
import { createTemplateStore } from "./core/templates.ts";
import { createTemplateService } from "./core/template-service.ts";
import { createListService } from "./core/list-service.ts";
import { createHealth } from "./health.ts";
import { createTlsReporting } from "./mta/tls-report/setup.ts";
import { createEventPipeline } from "./webhooks/pipeline.ts";
import { createInboundMail } from "./inbound/receive/index.ts";
import { createInboundListener, splitHostPort } from "./inbound/listener.ts";
import { createInboundRules } from "./core/inbound/rules.ts";
import { createBotVerdicts } from "./webhooks/bot-verdicts.ts";
import { createBotDetector } from "./tracking/bot-detector.ts";
import { createReceiverReportService } from "./core/receiver-reports.ts";
import { ownAddresses } from "./net/own-addresses.ts";
import { createBotApi } from "./tracking/bot-api.ts";
import { createInteractionRecorder } from "./tracking/interactions.ts";
import { createTrackingSurface } from "./api/tracking.ts";
import { createPreferences } from "./tracking/preferences.ts";
import { createSendgridSurface } from "./api/sendgrid/routes.ts";
import { createMailgunSurface } from "./api/mailgun/routes.ts";
import { createSparkpostSurface } from "./api/sparkpost/routes.ts";
import { createNativeSurface } from "./api/native/routes.ts";
import { createConsoleSurface } from "./api/console/routes.ts";
import { createSessionService } from "./core/sessions.ts";
import { createTeam } from "./core/team/index.ts";
import { createTenancy } from "./core/tenant-quota.ts";
import { holdsSendRight } from "./api/grants.ts";
import { createQueueAdmin } from "./mta/queue/admin.ts";
import { registerDestinationMetrics } from "./mta/queue/destination-view.ts";
import { createZoneDirectory } from "./core/zones.ts";
import { createZoneRouter } from "./api/zones/router.ts";
import { sessionToken } from "./api/console/session.ts";
import { createNodePresence } from "./core/nodes.ts";
import { createRetentionSweeper } from "./ops/retention.ts";
import { createDiskGuard, guardSends } from "./core/disk-guard.ts";
import { freeSpaceOf } from "./ops/free-space.ts";
import { AppError } from "./core/errors.ts";
import { RENEW_PATH, createHttpsListener, createTls, handleRenew } from "./tls/index.ts";
import { createTrackingHostService } from "./core/tracking-hosts.ts";
import { linkOrigins } from "./core/tracking-host-rules.ts";
import { serverAddresses } from "./core/server-addresses.ts";

export interface AppOptions {
  resolver?: Resolver;
  now?: () => number;
  log?: Logger;
  /** Use an in-memory store instead of data_dir (tests). */
  inMemory?: boolean;
}

/** Builds everything; creates the account on first use (its primary key is in `newAccountKey`). */
export async function createApp(config: Config, opts: AppOptions = {}) {
  const now = opts.now ?? (() => Date.now());
  const recentErrors = createRecentErrors();
  const log = opts.log ?? createLogger({ level: "info", recent: recentErrors });
  const resolver = opts.resolver ?? createSystemResolver(config.mta.dns_servers, { now });
  // A zone another node owns ([zones.<name>] url) has no file here: its data never lands on this node.
  const localZones = config.zones.names.filter((z) => !config.zones.remote[z]);
  // Every domain read goes through one cache (core/domain-read.ts), dropped by any process's write.
  const store: Store = withDomainCache(await openStore(config, localZones, opts.inMemory === true));
  // Domains of a zone served elsewhere are added here only when every node reads the same control data.
  const sharedControl = config.storage.engine === "postgres" && !opts.inMemory;
  const metrics = createMetrics();
  const mtaHostname = config.mta.hostname || osHostname();
  // Queue and webhook claims carry this id: unique among the nodes sharing a database.
  const nodeId = config.server.node_id || osHostname();
  const lease = { owner: nodeId, leaseMs: config.server.claim_lease };
  const nodes = createNodePresence({ store, now, node: { nodeId, zone: config.server.zone, host: osHostname(), pid: process.pid } });
  const audit = createAuditLog({ store: store.control, now });
  const access = createAccessService({ control: store.control, now, audit });
  const newAccountKey = await ensureAccount(store.control, access, now());
  const secret = await store.control.getSecret();
  const codec = createTokenCodec(secret);
  const egressDirectory = createEgressDirectory(config.mta, mtaHostname);
  const domains = createDomainService({
    control: store.control, resolver, now, zones: { names: config.zones.names, default: config.zones.default, remote: config.zones.remote, sharedControl },
    hasPool: egressDirectory.hasPool, audit,
    dns: { mtaHostname, bounceDomain: config.mta.bounce_domain, trackingHost: new URL(config.server.public_url).hostname,
      spf: spfMechanism(config.mta.hostname, Object.values(networkInterfaces()).flat().map((i) => i?.address ?? ""), osHostname()) },
  });
  const zoneDirectory = createZoneDirectory({ getDomain: store.control.getDomain, remote: config.zones.remote, publicUrl: config.server.public_url });
  const account = (await store.control.getAccount())!;
  // The one writer of events; what it records wakes the scheduler and the webhook pipeline.
  const recorder = createRecorder({ store, now, softBounces: { limit: config.mta.soft_bounce_limit, windowMs: config.mta.soft_bounce_window } });
  const events = await createEventPipeline({ store, resolver, now, log: log.child("events"), signingKey: account.webhookSigningKey, config: config.webhooks,
    publicUrl: config.server.public_url, spamCheck: createSpamCheck(config.inbound, log.child("inbound")), lease, loadInbound: async (domain, id) => {
      const d = await domains.get(domain);
      return d && localZones.includes(d.zone) ? store.zone(d.zone).getInbound(id) : null;
    } });
  const requestLoad = createRequestLoad();
  const egress = createEgressService({ directory: egressDirectory, counters: store.control, now });
  registerEgressMetrics(metrics.gauge, egress);
  // One certificate for the HTTP listener and inbound STARTTLS (src/tls); null without [tls].
  const tls = createTls({ config, now, log: log.child("tls"), shared: sharedControl ? store.tls : undefined });
  // Each domain's tracking host: checked on a tick, its certificate ordered by tls, its links' base for the builder.
  const trackingHosts = createTrackingHostService({ control: store.control, resolver, now, certificates: tls?.hosts,
    serverAddresses: () => serverAddresses({ egressAddresses: egressDirectory.sources.flatMap((s) => s.address ?? []), mtaHostname: config.mta.hostname, resolver,
      publicAddresses: config.doctor.public_addresses }),
    origins: linkOrigins({ publicUrl: config.server.public_url, tlsOn: tls !== null, listen: config.server.listen, httpListen: config.tls.http_listen }),
    onError: (e) => log.error("tracking host check failed", { error: String(e) }) });
  const mta = createMta({ config, store, resolver, now, log: log.child("mta"), hostname: mtaHostname, secret, codec, recorder, nodeId, requestLoad, egress: egress.directory,
    linkBaseFor: trackingHosts.linkBase });
  recorder.subscribe(mta.scheduler); recorder.subscribe(events);
  // New mail waits while the data directory's disk is low or a write found it full (contract §10).
  const disk = createDiskGuard({ now, minFree: config.storage.engine === "sqlite" && !opts.inMemory ? config.storage.min_free : 0,
    freeBytes: opts.inMemory || config.storage.engine !== "sqlite" ? () => null : freeSpaceOf(config.storage.data_dir) });
  const sender = guardSends(createSendService({
    store, recorder, now, hostname: mtaHostname, lifetimeMs: config.mta.max_queue_lifetime, maxMessageBytes: config.smtp.max_message_size, egress: egress.directory, audit,
  }), disk);
  let stopping = false;

  const inboundMail = createInboundMail({ rules: store.control, owningDomain: domains.owning, zone: (z) => store.zone(z), zoneNames: store.zoneNames,
    resolver, hostname: mtaHostname, now, sender, log: log.child("inbound"), keepMs: config.retention.inbound });
  const retention = createRetentionSweeper({ zone: (z) => store.zone(z), zoneNames: store.zoneNames, now, log: log.child("retention"),
    windows: config.retention, audit: store.control });
  // Posts and bot pushes written outside the recorder wake the webhook pipeline too.
  const botVerdicts = createBotVerdicts({ store, now });
  inboundMail.subscribe(events);
  botVerdicts.subscribe(events);
  const inboundRules = createInboundRules({ rules: store.control, owningDomain: domains.owning, now, audit,
    storedMessage: async (d, key) => (localZones.includes(d.zone) ? store.zone(d.zone).getInboundByKey(key) : null) });
  const suppressions = createSuppressionService({ store, now, audit });
  const webhooks = createWebhookService({ store, now, audit });
  const activity = createActivityService({ store });
  const receiverReports = createReceiverReportService({ store, now, getDomain: domains.get, localZones, ownAddresses: () => ownAddresses() });
  const validator = createValidator({
    resolver, now,
    // A domain's own bounce list for a domain-scoped question; every list for the account's.
    hasBounced: async (email, domain) => domain ? (await suppressions.get(domain, "bounces", email).catch(() => null)) !== null
      : (await Promise.all(store.zoneNames().map((z) => store.zone(z).isListedAnywhere(email, "bounces")))).some(Boolean),
    probe: config.validation.smtp_probe ? createSmtpProber({ heloName: mtaHostname, mailFrom: `postmaster@${mtaHostname}`, now,
      egress: { allowPrivate: config.webhooks.allow_private, resolver } }).probe : undefined,
  });
  const detector = createBotDetector({ resolver, now, store });
  const templateFiles = createTemplateStore({ dir: config.storage.templates_dir });
  const templateService = createTemplateService({ repo: store.templates, files: templateFiles, now, audit });
  const lists = createListService({ repo: store.lists, now, audit });
  // The doctor, its listing notices and the alerts (app-watchers.ts); queueAdmin is built below and read only later.
  const { doctor, alerts, dkimKeys } = createWatchers({ config, store, now, log, mtaHostname, signingKey: account.webhookSigningKey, resolver,
    testResolver: opts.resolver, egress: egressDirectory, domains, activity, queue: () => queueAdmin, send: sender, stopping: () => stopping,
    events, audit, certificate: () => (tls?.provider.health().not_after ?? null) });
  recorder.subscribe(alerts);
  const surfaceDeps: SurfaceDeps = { config, audit, access, domains, sender, suppressions, unsubscribeGroups: createUnsubscribeGroupService({ store, now, audit }),
    sendBatches: createSendBatchService({ store, now, audit }), webhooks, activity, validator, codec, now,
    webhookSigningKey: account.webhookSigningKey, templates: templateFiles, detector, resolver,
    outbound: events.outbound, eventWebhookPublicKey: events.publicKey, inboundRules, bots: createBotApi({ detector, verdicts: botVerdicts, now }),
    templateService, lists, receiverReports, egress, alerts, trackingHosts, doctor, dkimKeys, ...createTenancy({ store, now, audit, hasPool: egressDirectory.hasPool }) };

  const interactions = createInteractionRecorder({ store, recorder, detector, now });
  const tlsReporter = createTlsReporting({ config, store, resolver, now, log: log.child("tls-rpt"), sender, counter: mta.tlsSessions, hostname: mtaHostname });
  const health = createHealth({ store, now, zone: config.server.zone, openConnections: () => mta.pool.stats().open, recent: recentErrors, metrics,
    disk: disk.state, tls: tls ? () => tls.provider.health() : undefined, dane: mta.dane.health });

  const surfaces = {
    sendgrid: createSendgridSurface(surfaceDeps), mailgun: createMailgunSurface(surfaceDeps),
    sparkpost: createSparkpostSurface(surfaceDeps), native: createNativeSurface(surfaceDeps),
    tracking: createTrackingSurface({ codec, recorder: interactions, preferences: createPreferences({ store, interactions }), detector, log: log.child("tracking"), lists }),
  };
  const queueAdmin = createQueueAdmin({ store, recorder, now, shaping: mta.shaping, routes: config.mta.routes });
  registerDestinationMetrics(metrics, queueAdmin.destinations, now);
  const sessions = createSessionService({ control: store.control, access, now, requireTotp: config.console.require_totp, audit });
  const team = createTeam({ control: store.control, now, audit, publicUrl: config.server.public_url, inviteFrom: config.console.invite_from, sender, domains,
    oidc: config.console.oidc });
  // One count of wrong keys per client IP, whether they come to an API or to the console's sign-in.
  const keyThrottle = createThrottle({ now, freeFailures: 10 });
  const http = createHttpHandler({
    authenticate: access.authenticate,
    keyThrottle,
    rateLimits: { perIp: createRateLimiter({ rate: config.server.rate_limit_per_ip, now }), perKey: createRateLimiter({ rate: config.server.rate_limit_per_key, now }) },
    surfaces,
    console: createConsoleSurface({ ...surfaceDeps, sessions, team,
      queue: queueAdmin, keyThrottle, tlsHealth: tls ? () => tls.provider.health() : undefined }),
    health,
    metrics, log: log.child("http"), now,
    clientIp: createClientIp(config.server.trusted_proxies),
    zoneRouter: Object.keys(config.zones.remote).length ? createZoneRouter({ zones: zoneDirectory, localZone: config.server.zone,
      timeoutMs: config.zones.proxy_timeout, log: log.child("zones"), tokenDomain: (token) => codec.verify(token)?.domain ?? null,
      consolePrincipal: async (req) => (await sessions.resolve(sessionToken(req)))?.principal ?? null }) : undefined,
    refusal: () => (stopping ? new AppError("unavailable", "the server is shutting down; retry shortly", { reason: "stopping" }) : null),
  });

  const inbound = createInboundListener({ config, store, hostname: mtaHostname, secret, now, log: log.child("inbound"), disk,
    certificates: tls?.provider, stopping: () => stopping, access, maySend: holdsSendRight, forSender: domains.forSender, sender, recorder,
    getDomain: domains.get, interactions, receiverReports, inbound: inboundMail.listener, zones: zoneDirectory });

  // What looks after the mail out there on timers: started after delivery, stopped first.
  const watchers = [alerts, trackingHosts, doctor, dkimKeys, ...(tlsReporter ? [tlsReporter] : [])];
  let server: ReturnType<typeof createHttpsListener> | null = null;
  let serveLease: ServeLease | null = null;
  return {
    config, store, log, now, resolver, metrics, access, audit, team, domains, sender, mta, http, surfaces, mtaHostname, codec, newAccountKey,
    suppressions, webhooks, activity, validator, events, detector, recorder, inboundMail, inboundRules, nodes, receiverReports, retention, egress,
    tls, secret, alerts, trackingHosts, doctor, dkimKeys, tenants: surfaceDeps.tenants, tenantQuota: surfaceDeps.tenantQuota, tlsReporter, // tlsReporter: null unless [mta] tls_reports
    /** Starts the HTTP listener, the delivery scheduler and (as they are built) inbound SMTP and webhooks. */
    async start(): Promise<Record<string, string>> {
      // One process per node id: a starting node takes back its own claims at once (scheduler.start).
      serveLease = await store.takeLease(nodeId);
      await nodes.start((e) => log.error("node heartbeat failed", { error: String(e) }));
      const [host, port] = splitHostPort(config.server.listen);
      const redirect = await tls?.start();
      server = createHttpsListener({ host, port, maxRequestBodySize: 64 * 1024 * 1024, provider: tls?.provider ?? null, log: log.child("tls"), sni: tls?.hosts,
        fetch: async (req, srv) => (req.url.includes(RENEW_PATH) && await handleRenew(req, new URL(req.url).pathname, tls, secret, srv))
          || requestLoad.around(() => http(req, srv.requestIP(req)?.address ?? "")) });
      const listening = server.start();
      const smtp = await inbound.listen();
      mta.dane.start(); mta.tlsSessions?.start();
      await mta.scheduler.start();
      events.start();
      retention.start();
      for (const w of watchers) w.start();
      return { http: listening, smtp, ...(tls ? { tls: server.scheme() === "https" ? "https" : "plain http until a certificate exists" } : {}),
        ...(redirect ? { http_redirect: redirect } : {}) };
    },
    /**
     * The one shutdown sequence (KumoMTA's shutdown.rs): refuse new work (HTTP 503, SMTP 421), let
     * requests and SMTP transactions in flight finish, stop delivery by `shutdown_grace` (attempts
     * past it are ended and stay queued), write every outcome, then close the store and the lock.
     */
    async stop() {
      stopping = true;
      const deadline = now() + config.server.shutdown_grace;
      // The listeners stay open meanwhile, answering new work 503 / 421; what is in flight finishes.
      while ((requestLoad.open() > 0 || inbound.busy() > 0) && now() < deadline) await Bun.sleep(20);
      for (const w of watchers) await w.stop();
      await tls?.stop();
      await mta.stop(deadline);
      if (server) {
        await server.stop(true);
        await Promise.race([inbound.close(), Bun.sleep(1000)]);
      }
      await events.stop();
      await retention.stop();
      await access.flushTouches();
      await nodes.stop();
      await store.close();
      await serveLease?.release();
    },
  };
}

/**
 * `postern restore`: the engine's own restore of a backup into config's data (no store is opened:
 * that would create the files being replaced). PostgreSQL names pg_restore.
 */
export async function restoreData(config: Config, from: string, force: boolean) {
  if (config.storage.engine === "postgres") {
    throw new AppError("invalid", "postern restore puts SQLite files back; on PostgreSQL use pg_restore (see docs/operations.md)");
  }
  return restoreFiles(from, config.storage.data_dir, force);
}

/** The one place an engine is picked: SQLite files (or memory, in tests) or PostgreSQL shared by nodes. */
async function openStore(config: Config, zones: string[], inMemory: boolean): Promise<Store> {
  if (inMemory) return openSqliteStore(":memory:", zones);
  if (config.storage.engine === "postgres") {
    return openPostgresStore({ postgresUrl: config.storage.postgres_url, controlUrl: config.storage.control_url, zones,
      nodeId: config.server.node_id || osHostname() });
  }
  return openSqliteStore(config.storage.data_dir, zones);
}

export { splitHostPort };
export type App = Awaited<ReturnType<typeof createApp>>;
