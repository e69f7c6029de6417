// Domains, their DNS records, SMTP credentials and tracking settings in Mailgun's shapes.
// mailgun.js dereferences `body.domain.name`, so every domain answer wraps the object in `domain`.
import type { Domain } from "../../core/model.ts";
import type { DnsRecord } from "../../core/domain-dns.ts";
import { formatDate } from "./model.ts";
import { trackingHostOf } from "../../core/tracking-host-rules.ts";

// Mailgun's default footers, shown because postern adds its own unsubscribe link instead.
const HTML_FOOTER = '\n<br>\n<p><a href="%unsubscribe_url%">unsubscribe</a></p>\n';
const TEXT_FOOTER = "\n\nTo unsubscribe click: <%unsubscribe_url%>\n\n";

/** Mailgun's tracking host is `<web_prefix>.<domain>`; a host outside the domain is shown whole. */
export function webPrefixOf(d: Domain): string {
  const host = trackingHostOf(d);
  return host.endsWith(`.${d.name}`) ? host.slice(0, -d.name.length - 1) : host;
}

export function toMailgunDomain(d: Domain, webScheme: string) {
  return {
    created_at: formatDate(d.createdAt), id: String(d.id), is_disabled: d.state === "disabled", name: d.name,
    require_tls: false, skip_verification: false, smtp_login: `postmaster@${d.name}`, spam_action: "disabled",
    state: d.state, type: "custom", web_prefix: webPrefixOf(d), web_scheme: webScheme, wildcard: d.wildcard,
    use_automatic_sender_security: false,
  };
}

function toDnsRecord(r: DnsRecord) {
  return {
    cached: r.found ?? [], is_active: true, name: r.name, record_type: r.type, valid: r.valid ?? "unknown", value: r.value,
    ...(r.priority !== undefined && { priority: String(r.priority) }),
  };
}

/** Mailgun's split: the bounce MX is what receives; SPF, DKIM, DMARC and the tracking CNAME send. */
export function toDnsRecords(records: DnsRecord[]) {
  return {
    receiving_dns_records: records.filter((r) => r.type === "MX").map(toDnsRecord),
    sending_dns_records: records.filter((r) => r.type !== "MX").map(toDnsRecord),
  };
}

/** The answer of get, create, update and verify. */
export function toDomainDetail(d: Domain, records: DnsRecord[], webScheme: string, message?: string) {
  return { ...(message && { message }), domain: toMailgunDomain(d, webScheme), ...toDnsRecords(records) };
}

export function toCredential(c: { login: string; createdAt: number }) {
  return { created_at: formatDate(c.createdAt), login: c.login, mailbox: c.login, size_bytes: null };
}

export function toTracking(d: Domain) {
  return {
    tracking: {
      click: { active: d.clickTracking },
      open: { active: d.openTracking, place_at_the_top: false },
      unsubscribe: { active: d.unsubscribeTracking, html_footer: HTML_FOOTER, text_footer: TEXT_FOOTER },
    },
  };
}

/** Mailgun's tracking sections → the domain setting each one switches. */
export const TRACKING_SETTINGS = { open: "openTracking", click: "clickTracking", unsubscribe: "unsubscribeTracking" } as const;
