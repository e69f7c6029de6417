// The validation verdict every API surface maps from. Field names follow the S2 validation result
// of the service spec (snake_case on purpose, so the native mapper is a copy); `checks` holds the
// detail the vendor mappers (SendGrid, Mailgun, SparkPost) need beyond it.

export type Verdict = "deliverable" | "undeliverable" | "risky" | "unknown";

export type VerdictReason =
  | "invalid_email" // bad syntax
  | "invalid_domain" // no MX/A/AAAA, or a null MX
  | "rejected_email" // the mail server refused the mailbox, or it hard-bounced before
  | "accepted_email"
  | "low_quality" // disposable or probable typo
  | "low_deliverability" // accept-all, A-record-only domain, or otherwise weak evidence
  | "no_connect"
  | "timeout"
  | "invalid_smtp" // the server answered something unexpected
  | "unavailable_smtp" // the server answered 4xx or refused to be asked
  | "unexpected_error";

/**
 * What an SMTP probe learnt about one mailbox (RCPT TO only, never DATA):
 * - accept: RCPT of the address got 2xx and a random address at the domain got 5xx
 * - reject: RCPT of the address got 5xx (RFC 5321 §4.2.2, e.g. 550 5.1.1)
 * - accept_all: a random address at the domain was accepted, so acceptance proves nothing
 * - no_connect: no MX host could be reached
 * - timeout: a host accepted the connection but stopped answering
 * - invalid_smtp: a reply that does not fit the protocol (no 220 greeting, garbage)
 * - unavailable: 4xx (greylisting, throttling), a policy block, or our own probe budget spent
 */
export type ProbeKind = "accept" | "reject" | "accept_all" | "no_connect" | "timeout" | "invalid_smtp" | "unavailable";

export interface ProbeOutcome {
  kind: ProbeKind;
  /** The deciding SMTP reply code, when there was one. */
  code?: number;
  /** RFC 3463 enhanced status code such as "5.1.1", when the server gave one. */
  enhancedCode?: string;
  message?: string;
  /** The MX host that answered. */
  mx?: string;
}

/** What DNS says about where mail for a domain goes (RFC 5321 §5.1, RFC 7505). */
export type MailHostsKind = "mx" | "implicit_mx" | "null_mx" | "none" | "timeout" | "error";

export interface ValidationChecks {
  is_valid_syntax: boolean;
  syntax_issues: string[];
  /** The domain as lower-case A-labels, the form used for DNS. */
  ascii_domain: string;
  is_idn: boolean;
  /** The local part holds non-ASCII characters, so delivery needs SMTPUTF8 (RFC 6531). */
  is_smtputf8: boolean;
  /** "skipped" when no DNS query was needed (bad syntax, known bounce). */
  dns: MailHostsKind | "skipped";
  has_mx: boolean;
  /** The domain can receive mail: MX hosts, or A/AAAA as the implicit MX. */
  has_mx_or_a: boolean;
  is_null_mx: boolean;
  /** MX hosts by preference, or the domain itself for an implicit MX. */
  mx_hosts: string[];
  is_suspected_typo: boolean;
  /** null when no bounce history was consulted. */
  has_bounced: boolean | null;
  /** "skipped" when no prober is configured or probing could not change the verdict. */
  smtp: ProbeKind | "skipped";
  smtp_code: number | null;
  /** True when this answer came from the per-address cache. */
  is_cached: boolean;
}

export interface ValidationResult {
  result: Verdict;
  reason: VerdictReason;
  role: boolean;
  free: boolean;
  disposable: boolean;
  accept_all: boolean;
  /** A corrected address when the domain looks mistyped, else null. */
  did_you_mean: string | null;
  /** Quality score 0 (no quality) to 1 (perfect); formula in score.ts and docs/validation.md. */
  sendex: number;
  /** Normalised address: lower-cased, functionally equal to the one submitted. */
  email: string;
  user: string;
  domain: string;
  /** A short human explanation of the verdict. */
  message: string | null;
  /** False only when validation itself failed (reason unexpected_error). */
  success: boolean;
  /** Unix time in seconds at which the verdict was computed. */
  timeLogged: number;
  checks: ValidationChecks;
}
