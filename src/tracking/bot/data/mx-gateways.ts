// Recipient MX host suffix → mailbox provider or security gateway. Pure data.
// MX reveals which scanner to expect, not whether one ran: Microsoft 365 tenants may run Safe Links
// behind any third-party MX, and API-based products (Barracuda Sentinel, Abnormal) leave MX alone.

/**
 * - gateway: a filtering product that scans links at or before delivery.
 * - mailbox-scanning: a mailbox provider that may detonate links itself (Microsoft 365 Defender).
 * - mailbox: a consumer or workspace mailbox with no documented delivery-time link scanning.
 */
export type MxRole = "gateway" | "mailbox-scanning" | "mailbox";

export interface MxGateway {
  /** Registrable suffix matched on label boundaries against lower-cased MX hosts. */
  suffix: string;
  family: string;
  role: MxRole;
  source: string;
  /**
   * How long after delivery the gateway's sandbox is documented to fetch links, when longer than
   * the MX prior's default minute (research notes: Proofpoint TAP 5 s-5 min, Mimecast 2 s-2 min,
   * Cisco 5 s-3 min). Only these vendors' documented delays are used, never a fitted figure.
   */
  scanSeconds?: number;
  /**
   * The cloud a consumer mailbox's own link checks come from, where its consumers have no desktop:
   * any click from there, at any time, is the provider checking the link. Not for workspace mail,
   * whose people sit on cloud desktops in the same space.
   */
  checksFrom?: string;
}

/** Trend Micro Email Security's MX per serving site (ANZ, Japan, Singapore, India, UAE), from its own MTA-STS page. */
const TREND_SITES = "Trend Vision One docs, \"About mta-sts records for inbound protection\" (MX per serving site; read 2026-11-30)";

export const MX_GATEWAYS: readonly MxGateway[] = [
  { suffix: "mail.protection.outlook.com", family: "microsoft-365", role: "mailbox-scanning", source: "c7solutions.com/2024/02/what-is-mx-microsoft" },
  { suffix: "mx.microsoft", family: "microsoft-365", role: "mailbox-scanning", source: "Exchange blog 'Implementing Inbound SMTP DANE with DNSSEC'" },
  { suffix: "mail.eo.outlook.com", family: "microsoft-365", role: "mailbox-scanning", source: "retired 2018, vermasandeep.in" },
  { suffix: "mail.protection.office365.us", family: "microsoft-365", role: "mailbox-scanning", source: "MicrosoftDocs 'DNS records for Office 365 GCC High' and '... DoD' (MX tenant.mail.protection.office365.us), read 2026-11-30" },
  {
    // Outlook.com checks the links of its Microsoft 365 Personal and Family subscribers' mail "in the cloud" and
    // again when they click (Microsoft Support, "Advanced Outlook.com security for Microsoft 365 subscribers").
    suffix: "olc.protection.outlook.com", family: "outlook-consumer", role: "mailbox", checksFrom: "azure",
    source: "reacherhq/check-if-email-exists core/src/smtp/outlook/mod.rs (outlook-com., hotmail-com. and eur.olc.protection.outlook.com " +
      "for @outlook.* and @hotmail.*, B2C, against B2B's mail.protection.outlook.com), read 2026-11-30",
  },
  { suffix: "hotmail.com", family: "outlook-consumer", role: "mailbox", source: "jace/mxsniff" },
  { suffix: "gmail-smtp-in.l.google.com", family: "gmail", role: "mailbox", source: "jace/mxsniff" },
  { suffix: "aspmx.l.google.com", family: "google-workspace", role: "mailbox", source: "jace/mxsniff" },
  { suffix: "googlemail.com", family: "google-workspace", role: "mailbox", source: "jace/mxsniff" },
  { suffix: "smtp.google.com", family: "google-workspace", role: "mailbox", source: "research §6 (from memory, verify)" },
  { suffix: "psmtp.com", family: "google-workspace", role: "mailbox", source: "jace/mxsniff (legacy Postini)" },
  { suffix: "yahoodns.net", family: "yahoo", role: "mailbox", source: "jace/mxsniff; ZeroBounce sample" },
  { suffix: "mail.icloud.com", family: "icloud", role: "mailbox", source: "jace/mxsniff" },
  { suffix: "pphosted.com", family: "proofpoint", role: "gateway", source: "jace/mxsniff", scanSeconds: 300 },
  { suffix: "ppe-hosted.com", family: "proofpoint", role: "gateway", source: "excelmicro Proofpoint Essentials KB", scanSeconds: 300 },
  { suffix: "mimecast.com", family: "mimecast", role: "gateway", source: "jace/mxsniff", scanSeconds: 120 },
  { suffix: "mimecast.co.za", family: "mimecast", role: "gateway", source: "jace/mxsniff", scanSeconds: 120 },
  { suffix: "mimecast-offshore.com", family: "mimecast", role: "gateway", source: "jace/mxsniff", scanSeconds: 120 },
  { suffix: "barracudanetworks.com", family: "barracuda", role: "gateway", source: "captaindns.com/en/blog/barracuda-secure-email-gateway" },
  { suffix: "iphmx.com", family: "cisco", role: "gateway", source: "list headers (esaN.<customer>.iphmx.com)", scanSeconds: 180 },
  { suffix: "messagelabs.com", family: "symantec", role: "gateway", source: "jace/mxsniff" },
  { suffix: "inboundmx.com", family: "symantec", role: "gateway", source: "jace/mxsniff" },
  { suffix: "tmes.trendmicro.com", family: "trend-micro", role: "gateway", source: "docs.trendmicro.com" },
  { suffix: "tmes.trendmicro.eu", family: "trend-micro", role: "gateway", source: "docs.trendmicro.com" },
  { suffix: "tmes-anz.trendmicro.com", family: "trend-micro", role: "gateway", source: TREND_SITES },
  { suffix: "tmems-jp.trendmicro.com", family: "trend-micro", role: "gateway", source: TREND_SITES },
  { suffix: "tmes-sg.trendmicro.com", family: "trend-micro", role: "gateway", source: TREND_SITES },
  { suffix: "tmes-in.trendmicro.com", family: "trend-micro", role: "gateway", source: TREND_SITES },
  { suffix: "tmes-uae.trendmicro.com", family: "trend-micro", role: "gateway", source: TREND_SITES },
  { suffix: "prod.hydra.sophos.com", family: "sophos", role: "gateway", source: "docs.sophos.com DomainsPorts" },
  { suffix: "mailcontrol.com", family: "forcepoint", role: "gateway", source: "jace/mxsniff" },
  { suffix: "email.fireeyecloud.com", family: "trellix", role: "gateway", source: "jace/mxsniff" },
  { suffix: "mxlogic.net", family: "mcafee", role: "gateway", source: "jace/mxsniff" },
  { suffix: "arsmtp.com", family: "appriver", role: "gateway", source: "jace/mxsniff" },
  { suffix: "ctmail.com", family: "cyren", role: "gateway", source: "jace/mxsniff" },
  { suffix: "expurgate.net", family: "cyren", role: "gateway", source: "jace/mxsniff" },
  { suffix: "spamexperts.com", family: "spamexperts", role: "gateway", source: "jace/mxsniff" },
  { suffix: "hornetsecurity.com", family: "hornetsecurity", role: "gateway", source: "jace/mxsniff" },
];
