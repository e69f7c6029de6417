// The composition root: builds the store, services, MTA, inbound SMTP, events and the HTTP
// listener from one config. The only file that picks concrete implementations.
import { hostname as osHostname } from "node:os";
import type { Config } from "./config/load.ts";
import { openSqliteStore } from "./store/sqlite/index.ts";
import type { Store } from "./store/store.ts";
import { createSystemResolver, type Resolver } from "./dns.ts";
import { createLogger, type Logger } from "./log.ts";
import { createMetrics } from "./metrics.ts";
import { createAccessService } from "./core/access.ts";
import { createDomainService } from "./core/domains.ts";
import { ensureAccount } from "./core/account.ts";
import { createHttpHandler } from "./api/server.ts";
import { createClientIp } from "./api/client-ip.ts";

export interface AppOptions {
  resolver?: Resolver;
  now?: () => number;
  log?: Logger;
  /** Use an in-memory store instead of data_dir (tests). */
  inMemory?: boolean;
}

export function createApp(config: Config, opts: AppOptions = {}) {
  const now = opts.now ?? (() => Date.now());
  const log = opts.log ?? createLogger({ level: "info" });
  const resolver = opts.resolver ?? createSystemResolver(config.mta.dns_servers);
  const store: Store = openSqliteStore(opts.inMemory ? ":memory:" : config.storage.data_dir, config.zones.names);
  const metrics = createMetrics();
  const mtaHostname = config.mta.hostname || osHostname();
  const access = createAccessService({ control: store.control, now });
  const domains = createDomainService({
    control: store.control, resolver, now, zones: config.zones,
    dns: { mtaHostname, bounceDomain: config.mta.bounce_domain, trackingHost: new URL(config.server.public_url).hostname },
  });

  const http = createHttpHandler({
    authenticate: access.authenticate,
    surfaces: {},
    health: async () => ({ status: "ok", zone: config.server.zone, queue: await queueDepth() }),
    metrics, log: log.child("http"), now,
    clientIp: createClientIp(config.server.trusted_proxies),
  });

  async function queueDepth(): Promise<number> {
    let n = 0;
    for (const z of store.zoneNames()) { const s = await store.zone(z).queueStats(now()); n += s.queued + s.deferred; }
    return n;
  }
  metrics.gauge("postern_queue_depth", "recipients queued or deferred", async () => [[{}, await queueDepth()]]);

  let server: ReturnType<typeof Bun.serve> | null = null;
  return {
    config, store, log, now, resolver, metrics, access, domains, http, mtaHostname,
    ensureAccount: () => ensureAccount(store.control, access, now()),
    /** Starts the HTTP listener (and, as they are built, the MTA, inbound SMTP and webhooks). */
    async start() {
      const [host, port] = splitHostPort(config.server.listen);
      server = Bun.serve({
        hostname: host, port, maxRequestBodySize: 64 * 1024 * 1024,
        fetch: (req, srv) => http(req, srv.requestIP(req)?.address ?? ""),
        error: () => new Response("internal server error", { status: 500 }),
      });
      return { http: `${server.hostname}:${server.port}` };
    },
    async stop() {
      await server?.stop(true);
      await access.flushTouches();
      store.close();
    },
  };
}

export function splitHostPort(text: string): [string, number] {
  const i = text.lastIndexOf(":");
  return [text.slice(0, i).replace(/^\[|\]$/g, ""), Number(text.slice(i + 1))];
}

export type App = ReturnType<typeof createApp>;
