// The alerts subsystem assembled from what the composition root hands it: the store, the readings'
// sources (stat facts, the queue, the certificate, sending limits) and the two channels ([alerts]
// webhook, signed with the account's webhook signing key, and [alerts] email, sent through postern).
import type { Resolver } from "../dns.ts";
import type { Logger } from "../log.ts";
import type { AlertStore } from "../core/alerts-port.ts";
import type { Domain, SendRequest } from "../core/model.ts";
import { pinnedRequest } from "../net/pinned-request.ts";
import { createAlertService } from "./service.ts";
import { createWebhookChannel } from "./channels/webhook.ts";
import { createEmailChannel } from "./channels/email.ts";
import type { AlertSources } from "./readings.ts";

export interface AlertsDeps extends AlertSources {
  config: { alerts: { webhook: string; email: string[] }; webhooks: { allow_private: boolean; timeout: number } };
  store: AlertStore;
  resolver: Resolver;
  now: () => number;
  log: Logger;
  mtaHostname: string;
  signingKey: string;
  domains: () => Promise<Domain[]>;
  /** The core send service, as the account. */
  send: (req: SendRequest) => Promise<unknown>;
  stopping: () => boolean;
}

export function createAlerts(deps: AlertsDeps, opts: { intervalMs?: number } = {}) {
  const policy = { allowPrivate: deps.config.webhooks.allow_private, resolver: deps.resolver, timeoutMs: deps.config.webhooks.timeout };
  const webhook = createWebhookChannel({ url: deps.config.alerts.webhook, signingKey: deps.signingKey, now: deps.now, log: deps.log,
    send: (url, init) => pinnedRequest(url, init, policy), stopped: deps.stopping });
  const email = createEmailChannel({ to: deps.config.alerts.email, mtaHostname: deps.mtaHostname, domains: deps.domains, send: deps.send, log: deps.log });
  return createAlertService({ store: deps.store, now: deps.now, log: deps.log, channels: [webhook, email], sources: deps, intervalMs: opts.intervalMs });
}

export type { AlertService, AlertObservation } from "./service.ts";
