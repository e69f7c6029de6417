// Wires inbound SMTP (submission, bounces and reports, unsubscribe mail, receivers' reports,
// receiving domains) from the app's services: the composition root hands over what it built and
// this picks the inbound pieces, so src/app.ts stays one screen of wiring.
import type { Config } from "../config/load.ts";
import type { Store } from "../core/store-port.ts";
import type { Logger } from "../log.ts";
import type { DiskGuard } from "../core/disk-guard.ts";
import type { CertificateProvider } from "../tls/index.ts";
import { createReportMailboxes } from "../core/report-mailboxes.ts";
import { createThrottle } from "../core/throttle.ts";
import { createInboundServer, type InboundDeps } from "./smtp-server.ts";
import { createZoneGate } from "./zone-gate.ts";
import { createUnsubscribeMailboxes } from "./unsubscribe-mail.ts";
import { createReportHandler } from "./report-handler.ts";
import { createReceiverReportMailbox } from "./reports/mailbox.ts";
import { createSubmissionLogin, type SubmissionLoginDeps } from "./submission-login.ts";

type ZoneDirectory = Parameters<typeof createZoneGate>[0]["zones"];
type ReceiverReports = Parameters<typeof createReceiverReportMailbox>[0]["service"];

export interface InboundWiring {
  config: Config;
  store: Store;
  hostname: string;
  secret: string;
  now: () => number;
  log: Logger;
  disk: DiskGuard;
  certificates?: CertificateProvider;
  stopping: () => boolean;
  /** SMTP AUTH: credentials and API keys (core/access.ts), and whether a key may send (its grants). */
  access: { authenticateSmtp: SubmissionLoginDeps["credential"]; authenticate: SubmissionLoginDeps["key"] };
  maySend: SubmissionLoginDeps["maySend"];
  forSender: InboundDeps["forSender"];
  sender: InboundDeps["sender"];
  recorder: InboundDeps["recorder"];
  getDomain: Parameters<typeof createReportMailboxes>[0]["getDomain"];
  interactions: Parameters<typeof createUnsubscribeMailboxes>[0]["interactions"];
  receiverReports: ReceiverReports;
  inbound: InboundDeps["inbound"];
  zones: ZoneDirectory;
}

export const splitHostPort = (text: string): [string, number] => {
  const i = text.lastIndexOf(":");
  return [text.slice(0, i).replace(/^\[|\]$/g, ""), Number(text.slice(i + 1))];
};

export function createInboundListener(w: InboundWiring) {
  const { config, store, secret, now } = w;
  const bounceDomain = config.mta.bounce_domain;
  return createInboundServer({
    listen: splitHostPort(config.smtp.listen), hostname: w.hostname, allowInsecureAuth: config.smtp.allow_insecure_auth,
    tls: config.smtp.tls_cert ? { cert: config.smtp.tls_cert, key: config.smtp.tls_key } : undefined,
    certificates: w.certificates,
    maxMessageBytes: config.smtp.max_message_size, sender: w.sender, forSender: w.forSender,
    authenticate: createSubmissionLogin({ credential: w.access.authenticateSmtp, key: w.access.authenticate, maySend: w.maySend }), throttle: createThrottle({ now }),
    maxReportBytes: config.smtp.max_report_size, maxConnectionsPerIp: config.smtp.max_connections_per_ip,
    connectionsPerMinutePerIp: config.smtp.connections_per_minute_per_ip, now,
    reports: createReportHandler({ store, secret, now }), log: w.log,
    recorder: w.recorder, disk: w.disk, stopping: w.stopping,
    isReportMailbox: createReportMailboxes({ getDomain: w.getDomain, bounceDomain }),
    unsubscribes: createUnsubscribeMailboxes({ store, secret, interactions: w.interactions }),
    receiverReports: createReceiverReportMailbox({ service: w.receiverReports, getDomain: w.getDomain, bounceDomain, log: w.log.child("reports") }),
    inbound: w.inbound,
    zoneGate: Object.keys(config.zones.remote).length
      ? createZoneGate({ zones: w.zones, localZone: config.server.zone, ownHosts: [bounceDomain] }) : undefined,
  });
}
