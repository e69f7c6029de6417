// What the composition root hands the surfaces. Each surface declares the part it uses
// (`Pick<SurfaceDeps, ...>`), so a route module sees only its own dependencies.
import type { Config } from "../config/load.ts";
import type { AccessService } from "../core/access.ts";
import type { DomainService } from "../core/domains.ts";
import type { SendService } from "../core/send.ts";
import type { SuppressionService } from "../core/suppressions.ts";
import type { WebhookService } from "../core/webhooks.ts";
import type { ActivityService } from "../core/activity.ts";
import type { Validator } from "../validation/verdict.ts";
import type { TokenCodec } from "../tracking/token.ts";
import type { TemplateStore } from "../core/templates.ts";
import type { TemplateService } from "../core/template-service.ts";
import type { ListService } from "../core/list-service.ts";
import type { BotDetector } from "../tracking/bot-detector.ts";
import type { Resolver } from "../dns.ts";
import type { Outbound } from "../webhooks/outbound.ts";
import type { BotApi } from "../tracking/bot-api.ts";
import type { InboundRules } from "../core/inbound/rules.ts";
import type { UnsubscribeGroupService } from "../core/unsubscribe-groups.ts";
import type { SendBatchService } from "../core/send-batches.ts";
import type { EgressService } from "../core/egress/service.ts";
import type { TrackingHostService } from "../core/tracking-hosts.ts";

import type { ReceiverReportService } from "../core/receiver-reports.ts";
import type { AlertService } from "../alerts/service.ts";
import type { AuditLog } from "../core/audit.ts";
import type { Doctor } from "../doctor/index.ts";
import type { DkimRotation } from "../core/dkim-rotation.ts";
import type { TenantService } from "../core/tenants.ts";
import type { TenantQuota } from "../core/tenant-quota.ts";

export interface SurfaceDeps {
  config: Config;
  /** The audit log's reads (GET /audit, the console's Audit page); its writer sits in the services. */
  audit: AuditLog;
  access: AccessService;
  domains: DomainService;
  sender: SendService;
  suppressions: SuppressionService;
  /** Unsubscribe groups (SendGrid ASM). */
  unsubscribeGroups: UnsubscribeGroupService;
  /** Scheduled-send batches and their holds (SendGrid /v3/mail/batch, /v3/user/scheduled_sends). */
  sendBatches: SendBatchService;
  webhooks: WebhookService;
  activity: ActivityService;
  validator: Validator;
  codec: TokenCodec;
  now: () => number;
  /** The account's webhook signing key (Mailgun-style HMAC signatures). */
  webhookSigningKey: string;
  /** Stored templates (Handlebars files in storage.templates_dir). */
  templates: TemplateStore;
  /** Stored templates with versions, per domain or account-wide (files of templates_dir as fallback). */
  templateService: TemplateService;
  /** Stored lists: Mailgun mailing lists and SparkPost recipient lists. */
  lists: ListService;
  /** Bot classification with honeypot memory (native bot API). */
  detector: BotDetector;
  /** DNS, for the egress guard of URLs the API calls (webhook checks, bot webhooks). */
  resolver: Resolver;
  /** Webhook samples, URL checks and the create/validate ping, in any format (webhooks/outbound.ts). */
  outbound: Outbound;
  /** Base64 DER (SPKI) public key of the ECDSA pair SendGrid-format webhooks are signed with. */
  eventWebhookPublicKey: string;
  /** Inbound routing rules of every vendor API (Mailgun routes, Inbound Parse, relay webhooks). */
  inboundRules: InboundRules;
  /** The native bot API: classification, kept results and queued verdict pushes. */
  bots: BotApi;
  /** Receivers' DMARC aggregate and TLS reports about the domains. */
  receiverReports: ReceiverReportService;
  /** Egress sources and pools with their warm-up state (the vendors' IP and pool listings). */
  egress: EgressService;
  /** Alert rules and incidents (src/alerts, docs/alerts.md). */
  alerts: AlertService;
  /** Each domain's tracking host (docs/tracking-hosts.md). */
  trackingHosts: TrackingHostService;
  /** The doctor's checks and the blocklist watch (src/doctor). */
  doctor: Doctor;
  /** Each domain's DKIM keys and their rotation (core/dkim-rotation.ts). */
  dkimKeys: DkimRotation;
  /** Tenants (subaccounts, docs/tenants.md): the vendors' subaccount APIs drive these. */
  tenants: TenantService;
  /** Tenants' monthly message limits (Mailgun's subaccount limit routes). */
  tenantQuota: TenantQuota;
}
