// The single source of truth for postern's configuration: every key, its type, default and
// description. `config/postern.example.toml` and the file `postern init` writes are rendered from
// it (test/config/schema.test.ts fails when they drift).

export type KeyType = "string" | "bool" | "int" | "duration" | "strings" | "durations" | "table" | "size";

export interface KeyDef {
  section: string;
  key: string;
  type: KeyType;
  default: unknown;
  description: string;
  /** Shown commented out in the rendered file instead of the default (for keys with no default). */
  example?: string;
}

export interface SectionDef {
  name: string;
  description: string;
}

export const SECTIONS: SectionDef[] = [
  { name: "server", description: "The HTTP listener that serves all four API surfaces, tracking and /healthz" },
  { name: "storage", description: "Where data lives: SQLite files under data_dir (the default), or PostgreSQL shared by several nodes" },
  { name: "zones", description: "Data zones: a domain's messages, events and suppressions live only in its zone's file" },
  { name: "mta", description: "The outbound MTA: queue, retries, DNS and static routes" },
  { name: "smtp", description: "Inbound SMTP: bounces (DSN), complaints (ARF) and authenticated submission" },
  { name: "inbound", description: "Received mail for receiving domains (docs/inbound.md)" },
  { name: "webhooks", description: "Event delivery to webhook targets" },
  { name: "validation", description: "Address validation" },
  { name: "retention", description: "How long data is kept (\"0\": forever); suppressions, domains, keys, credentials and templates never expire (docs/retention.md)" },
  { name: "console", description: "The web console's users (docs/team.md); signing in with an API key keeps working" },
  { name: "console.oidc", description: "Single sign-on to the console through an OpenID Connect provider (docs/team.md); the callback is <public_url>/ui/oidc/callback" },
  { name: "tls", description: "HTTPS for [server] listen and STARTTLS for inbound SMTP: certificates from an ACME CA, or files of your own (docs/tls.md)" },
  { name: "alerts", description: "Where alerts go: bounce, block and complaint rates, queue age, certificate expiry, blocklistings, failing checks (docs/alerts.md)" },
  { name: "doctor", description: "Checks of what decides whether mail lands: port 25, PTR, SPF, DKIM, DMARC, bounce MX, tracking host (docs/deliverability.md)" },
  { name: "blocklists", description: "DNS blocklists asked about every egress address and every sending, bounce and tracking host (docs/deliverability.md)" },
  { name: "dkim", description: "DKIM key rotation: pending → active (once DNS shows it) → retiring → retired (docs/deliverability.md)" },
];

const k = (section: string, key: string, type: KeyType, def: unknown, description: string, example?: string): KeyDef =>
  ({ section, key, type, default: def, description, example });

export const KEYS: KeyDef[] = [
  k("server", "listen", "string", "127.0.0.1:8025", "host:port of the one HTTP listener (all four surfaces, routed by path prefix)"),
  k("server", "public_url", "string", "http://127.0.0.1:8025", "base of tracking, unsubscribe and honeypot links"),
  k("server", "zone", "string", "us", "the zone this node serves"),
  k("server", "node_id", "string", "", "unique among nodes sharing a database: queue and webhook claims carry it; empty: the host name", '"us-1"'),
  k("server", "claim_lease", "duration", "30s", "a node renews its claims (recipients being delivered, webhook posts) while it works; a killed node's claims go to the other nodes when this runs out"),
  k("server", "trusted_proxies", "strings", ["127.0.0.1/8", "::1/128"], "X-Forwarded-For is believed only from these peers"),
  k("server", "rate_limit_per_key", "int", 10000, "API requests a second one key may make (bursts of as many); above it the vendor's 429; 0: no limit"),
  k("server", "shutdown_grace", "duration", "30s", "on SIGTERM/SIGINT: how long deliveries and SMTP transactions in flight may take to finish; then the rest is written back as deferred and the process exits 0 (keep systemd's TimeoutStopSec above it)"),
  k("server", "rate_limit_per_ip", "int", 20000, "API requests a second from one client IP, keyed or not; 0: no limit"),
  k("storage", "engine", "string", "sqlite", "\"sqlite\": files under data_dir (the embedded default); \"postgres\": the URLs below"),
  k("storage", "postgres_url", "string", "", "postgres: the data of the zones served here (messages, queue, events, suppressions, outbox, tracking state), one schema per zone", '"postgres://postern@127.0.0.1:5432/postern"'),
  k("storage", "control_url", "string", "", "postgres: account, domains, DKIM keys, API keys, credentials, webhooks, templates; shared by every node of every zone; empty: postgres_url"),
  k("storage", "data_dir", "string", "./postern-data", "control.sqlite + one <zone>.sqlite per data zone; relative paths are relative to the config file"),
  k("storage", "min_free", "size", "1GiB", "below this free space on data_dir's filesystem new mail is refused (HTTP 503 with Retry-After, SMTP 452 4.3.1); delivery, tracking and webhooks go on; bytes or KiB/MiB/GiB; \"0\": off"),
  k("storage", "templates_dir", "string", "./postern-data/templates", "stored templates (Handlebars files) used by name"),
  k("zones", "names", "strings", ["us", "eu"], "data zones this installation knows"),
  k("zones", "default", "string", "us", "zone of new domains unless `domain add --zone` says otherwise"),
  k("zones", "proxy_timeout", "duration", "30s", "how long a request proxied to a zone served elsewhere ([zones.<name>] url) may wait for that zone's answer (then the surface's 504), and then for each next piece of a streaming answer (then the response is cut)"),
  k("mta", "hostname", "string", "", "EHLO name and Message-ID domain (with a matching PTR); empty: this machine's host name", '"mail.example.com"'),
  k("mta", "bounce_domain", "string", "", "domain of VERP return paths (its MX must point here); empty: bounces.<sending domain>", '"bounces.example.com"'),
  k("mta", "max_queue_lifetime", "duration", "5d", "a message still undelivered after this fails permanently"),
  k("mta", "soft_bounce_limit", "int", 0, "suppress an address after this many soft bounces (mailbox full, timeouts; not blocks) within soft_bounce_window; 0: never"),
  k("mta", "soft_bounce_window", "duration", "14d", "the window soft_bounce_limit counts over"),
  k("mta", "retry", "durations", ["1m", "5m", "15m", "30m", "1h", "2h", "4h"], "delays between attempts; then the last step until the lifetime ends (RFC 5321 §4.5.4.1)"),
  k("mta", "dns_servers", "strings", [], "\"host:port\" resolvers for every DNS look-up (MX, validation, domain verify, DKIM/SPF/DMARC, MTA-STS); empty: the nameservers of /etc/resolv.conf"),
  k("mta", "max_connections", "int", 200, "outbound SMTP connections open at once, all destinations together"),
  k("mta", "max_connections_per_host", "int", 20, "the most connections open at once to one destination without a rule of its own ([mta.shaping.default] connections); concurrency starts at 5 like Postfix's initial destination concurrency and grows while deliveries succeed (docs/shaping.md)"),
  k("mta", "messages_per_connection", "int", 100, "messages sent over one SMTP connection before it is closed"),
  k("mta", "signing_workers", "int", 1, "worker threads that compose and DKIM-sign outgoing mail, at a lower CPU priority than the main thread (accepting, SMTP); 1 (the default) takes RSA signing off the main thread; 0 signs on the main thread (a one-core machine)"),
  k("mta", "dane", "string", "auto", "outbound DANE (RFC 7672, docs/outbound-tls.md): \"auto\" uses it while the dns_servers resolver is proven to validate DNSSEC (probed at start and hourly), \"on\" always (no AD: opportunistic TLS), \"off\" never"),
  k("mta", "dnssec_broken_probe", "string", "dnssec-failed.org", "a name with deliberately broken signatures that a validating resolver must refuse (SERVFAIL); empty: only the root DNSKEY probe"),
  k("mta", "tls_reports", "bool", false, "send TLS-RPT reports (RFC 8460) once a day to each receiving domain whose _smtp._tls record asks for them (by mail or HTTPS); turn on in one node only"),
  k("mta", "tls_reports_from", "string", "", "the address TLS-RPT mail comes from (its domain must be a sending domain here); empty: tls-reports@<the first active domain>", '"tls-reports@example.com"'),
  k("mta", "routes", "table", {}, "static routes that override MX, like Postfix transport maps: \"domain\" = \"host:port\", \"*\" = smarthost", '"example.org" = "127.0.0.1:2526"'),
  k("smtp", "listen", "string", "127.0.0.1:2525", "inbound: bounces (DSN), complaints (ARF), authenticated submission"),
  k("smtp", "allow_insecure_auth", "bool", false, "AUTH without TLS only from loopback, unless this is true"),
  k("smtp", "tls_cert", "string", "", "PEM certificate for STARTTLS on the inbound listener", '"/etc/postern/tls.crt"'),
  k("smtp", "tls_key", "string", "", "PEM private key for STARTTLS on the inbound listener", '"/etc/postern/tls.key"'),
  k("smtp", "max_message_size", "int", 31457280, "largest message accepted, in bytes (inbound SMTP and every API)"),
  k("smtp", "max_report_size", "int", 1048576, "bytes kept of an unauthenticated message (bounce, complaint, mail to postmaster@/abuse@); the rest is read and dropped"),
  k("smtp", "max_connections_per_ip", "int", 20, "inbound SMTP connections open at once from one IP"),
  k("smtp", "connections_per_minute_per_ip", "int", 120, "new inbound SMTP connections a minute from one IP"),
  k("inbound", "spamd", "string", "", "host:port of SpamAssassin's spamd for SendGrid Inbound Parse spam_check; empty: posts carry no spam_score or spam_report", '"127.0.0.1:783"'),
  k("inbound", "spamd_timeout", "duration", "10s", "longest wait for spamd's answer; then the post goes without a score"),
  k("inbound", "spamd_max_size", "int", 512000, "larger messages are not checked (spamc's default limit) and posted without a score"),
  k("webhooks", "allow_private", "bool", false, "refuse loopback/private/link-local targets (webhooks, callback and OAuth URLs, SMTP probes) unless true"),
  k("webhooks", "retry", "durations", ["30s", "1m", "5m", "10m", "30m", "1h"], "delays between attempts of a webhook POST; then the last step until the lifetime ends"),
  k("webhooks", "lifetime", "duration", "26h", "an event webhook POST still unacknowledged after this is given up (inbound posts keep their vendor's window: docs/inbound.md)"),
  k("webhooks", "timeout", "duration", "10s", "how long one webhook POST may take"),
  k("webhooks", "concurrency_per_target", "int", 4, "webhook POSTs in flight at once to one URL"),
  k("webhooks", "probe_interval", "duration", "5s", "a failing target is probed (one POST, its earliest item) at least this often; when one succeeds its waiting POSTs go at once"),
  k("validation", "smtp_probe", "bool", false, "RCPT-only probing of mailboxes, never DATA"),
  k("retention", "events", "duration", "30d", "events older than this are deleted (stats keep their hourly and daily counts)"),
  k("retention", "messages", "duration", "30d", "messages whose every recipient is delivered or failed since this long, with their recipients, events, bodies and attachments"),
  k("retention", "inbound", "duration", "3d", "received mail kept for the stored-message URLs (set on each message when it arrives)"),
  k("retention", "audit", "duration", "400d", "audit log entries (who changed what: docs/team.md) older than this are deleted; kept longer than events"),
  k("console", "invite_from", "string", "", "From address of invitation mail (its domain must be active; empty: postmaster@ the first active domain)", '"team@example.com"'),
  k("console.oidc", "issuer", "string", "", "the provider's issuer URL (https, or http on a loopback address); empty: no single sign-on", '"https://login.example.com"'),
  k("console.oidc", "client_id", "string", "", "the client id registered at the provider", '"postern"'),
  k("console.oidc", "client_secret", "string", "", "the client secret (client_secret_basic); empty: a public client (PKCE only)"),
  k("console.oidc", "auto_create", "bool", false, "true: a first sign-in whose verified email matches no user creates an analyst; false: it is refused"),
  k("console", "require_totp", "bool", false, "true: every console user must sign in with a TOTP code (enrolment is asked at the first sign-in)"),
  k("tls", "acme", "bool", false, "true: obtain and renew certificates from an ACME CA for `hostnames`"),
  k("tls", "acme_directory", "string", "https://acme-v02.api.letsencrypt.org/directory", "the ACME CA's directory URL"),
  k("tls", "acme_email", "string", "", "contact address for the CA account", '"postmaster@example.com"'),
  k("tls", "acme_ca_file", "string", "", "extra CA certificates (PEM) to trust when talking to the directory (a private or test CA)"),
  k("tls", "hostnames", "strings", [], "names on the certificate; empty: the host of server.public_url and mta.hostname"),
  k("tls", "http_listen", "string", "", "host:port answering HTTP-01 challenges and redirecting everything else to https; empty: none", '"0.0.0.0:80"'),
  k("tls", "cert_file", "string", "", "or a certificate of your own (PEM, chain included) ...", '"/etc/postern/cert.pem"'),
  k("tls", "key_file", "string", "", "... and its key; both reloaded when the files change", '"/etc/postern/key.pem"'),
  k("tls", "reload_interval", "duration", "10s", "how often cert_file and key_file are read again: a replaced pair serves from the next read"),
  k("alerts", "webhook", "string", "", "URL: alerts as signed JSON (same signature scheme as native webhooks)", '"https://ops.example.com/postern-alerts"'),
  k("alerts", "email", "strings", [], "addresses; alert mail is sent through postern itself"),
  k("alerts", "interval", "duration", "1m", "how often the rules are read; the first reading comes 5 s after the start and a recorded bounce or complaint brings one within 15 s (a twelfth and a quarter of a shorter interval)"),
  k("doctor", "interval", "duration", "1h", "checks and blocklists re-run on this schedule while the server runs; a change is an event and an alert; \"0\": only on demand"),
  k("doctor", "port25_probe", "string", "gmail-smtp-in.l.google.com:25", "host:port the outbound port-25 check connects to (a TCP connect and a 220 greeting)"),
  k("doctor", "public_addresses", "strings", [], "this server's public addresses; empty: the egress addresses and mta.hostname's A/AAAA"),
  k("blocklists", "ip_zones", "strings", ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org", "psbl.surriel.com", "bl.mailspike.net"], "DNSBLs every egress address is looked up in"),
  k("blocklists", "domain_zones", "strings", ["dbl.spamhaus.org"], "domain blocklists every sending, bounce and tracking host is looked up in"),
  k("blocklists", "spamhaus_dqs_key", "string", "", "a Spamhaus Data Query Service key: Spamhaus zones are then asked as <key>.zen.dq.spamhaus.net (public resolvers are refused)"),
  k("dkim", "rotate_after", "duration", "180d", "an active key this old gets a pending successor (M3AAWG: at least every six months); \"0\": only `postern domain dkim rotate`"),
  k("dkim", "retire_after", "duration", "7d", "how long a replaced key stays published (retiring) so mail in flight still verifies; then retired, safe to remove"),
];

/**
 * The keys a `[zones.<name>]` sub-table may hold: `url`, where the nodes serving that zone answer
 * (requests for its domains are proxied there), and `public_url`, the base of its domains' tracking
 * links and tracking CNAME (default: `url`).
 */
export const ZONE_TABLE_KEYS = ["url", "public_url"];

export function findKey(section: string, key: string): KeyDef | undefined {
  return KEYS.find((d) => d.section === section && d.key === key);
}

function renderValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(renderValue).join(", ")}]`;
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}

/** [mta.shaping] (src/config/shaping.ts, docs/shaping.md), commented out: the defaults are built in. */
const SHAPING_TEMPLATE = [
  "", "# Delivery shaping per destination (docs/shaping.md). Defaults: connections = max_connections_per_host,",
  "# messages_per_connection as above, initial_connections = 5, no rate; built-in providers gmail, outlook,",
  "# yahoo, icloud, apple and built-in automation for their throttle replies.",
  "# [mta.shaping.default]", "# connections = 20", "# initial_connections = 5", "# messages_per_connection = 100", '# rate = ""                      # "100/s", "5000/h"; empty: no limit',
  "# [mta.shaping.providers.gmail]", '# match = ["gmail.com", "googlemail.com", "google.com"]', "# connections = 20", "# messages_per_connection = 50",
  "# [[mta.shaping.automation]]", '# provider = "yahoo"              # a provider name or "*"', '# match = "TSS04"                 # regular expression on the reply',
  '# action = "suspend"              # "suspend": no attempt for duration; "throttle": one connection', '# duration = "2h"',
];

/** The commented TOML file that `postern init` writes and config/postern.example.toml holds. */
export function renderConfigTemplate(): string {
  const out = [
    "# postern configuration. Every key is optional: the value shown is the default.",
    "# Environment variables POSTERN_<SECTION>_<KEY> override single keys (POSTERN_SERVER_LISTEN).",
    "# Durations: 500ms, 30s, 5m, 2h, 5d. Generated from src/config/schema.ts; do not edit by hand.",
  ];
  for (const section of SECTIONS) {
    out.push("", `# ${section.description}`, `[${section.name}]`);
    for (const def of KEYS.filter((d) => d.section === section.name)) {
      if (def.type === "table") continue;
      const line = def.example !== undefined && def.default === "" ? `# ${def.key} = ${def.example}` : `${def.key} = ${renderValue(def.default)}`;
      out.push(`${line.padEnd(44)} # ${def.description}`);
    }
    if (section.name === "zones") {
      out.push("", "# A zone served by other nodes: its domains' API requests are proxied to url; public_url (default url)",
        "# is the base of its tracking links. Needs control data shared by every node ([storage] control_url).",
        "# [zones.eu]", '# url = "https://eu.mail.example.com"', '# public_url = "https://eu.mail.example.com"');
    }
    if (section.name === "mta") {
      const routes = findKey("mta", "routes")!;
      out.push("", `# ${routes.description}`, "[mta.routes]", `# ${routes.example}`, '# "*" = "smtp.relay.example:587"');
      out.push(...SHAPING_TEMPLATE);
      out.push("", "# Egress sources (docs/egress.md): the local address outbound SMTP binds to, its EHLO name (default",
        "# mta.hostname) and, for a new address, the first day of its warm-up (SendGrid's hourly caps: 20, 28, 39, ...;",
        "# warm from day 42; empty: warm). Pools group sources (an address belongs to at most one); messages name",
        "# one (ip_pool_name, options.ip_pool, o:sending-ip-pool, pool) or take their domain's (domain set --pool),",
        "# else pool \"default\" (without [mta.pools.default]: the machine's default address).",
        "# [mta.egress.ip1]", '# source_address = "203.0.113.10"', '# ehlo = "mta1.example.com"', '# warmup_start = "2026-11-26"',
        "# [mta.pools.default]", '# sources = ["ip1"]');
    }
  }
  return out.join("\n") + "\n";
}
