// Full validation of one address, as named steps: syntax → lists and typo → bounce history → DNS
// → optional SMTP probe → score (score.ts). Time, DNS, history and probing are injected; verdicts
// are cached per address, DNS answers per domain (mail-hosts.ts).
import type { Resolver } from "../dns.ts";
import { parseAddress, type ParsedAddress } from "../core/address/address.ts";
import { TtlCache } from "./cache.ts";
import { isDisposableDomain, isFreeDomain, isRoleLocalPart } from "./lists.ts";
import { createMailHostLookup, type MailHosts } from "./mail-hosts.ts";
import type { ProbeOutcome, ValidationChecks, ValidationResult } from "./result.ts";
import { decideVerdict, type Decision, type VerdictFacts } from "./score.ts";
import { suggestAddress } from "./suggest.ts";
import { checkParsedSyntax } from "../core/address/syntax.ts";

export type { ProbeOutcome, ValidationResult } from "./result.ts";

export const DEFAULT_CACHE_TTL_MS = 60 * 60_000;
export const MAX_CACHED_ADDRESSES = 50_000;
// Mailgun's documented ceiling; longer input is refused before the parser spends time on it.
export const MAX_INPUT_CHARS = 512;
const ASCII_RE = /^[\x00-\x7F]*$/;

export interface ValidatorDeps {
  resolver: Resolver;
  now: () => number;
  /** Deadline for a domain's DNS look-up. Default 4,000 ms. */
  dnsTimeoutMs?: number;
  /** Reuse of verdicts (per address) and DNS answers (per domain). Default 1 hour; 0 disables. */
  cacheTtlMs?: number;
  /**
   * True when the address hard-bounced before; given the normalised `email` of the result and the
   * domain whose history the caller may see (null: every domain of the account).
   */
  hasBounced?: (email: string, domain: string | null) => Promise<boolean>;
  /**
   * SMTP RCPT probe, e.g. createSmtpProber(...).probe, given the lower-cased address with an
   * A-label domain and the MX hosts by preference; without it SMTP is "skipped".
   */
  probe?: (email: string, mxHosts: string[]) => Promise<ProbeOutcome>;
}

export interface Validator {
  /**
   * Validates one address (bare or `Name <addr>`); never throws. `domain` limits the bounce
   * history consulted to that sending domain's (a domain key must not learn about other domains).
   */
  validate(address: string, opts?: { domain?: string | null }): Promise<ValidationResult>;
}

interface Subject {
  parsed: ParsedAddress;
  email: string;
  user: string;
  domain: string;
}

interface Gathered {
  facts: VerdictFacts;
  didYouMean: string | null;
  hosts: MailHosts;
  hasBounced: boolean | null;
  probe?: ProbeOutcome;
}

type Lookup = (asciiDomain: string) => Promise<MailHosts>;

const emptyChecks = (): ValidationChecks => ({
  is_valid_syntax: false, syntax_issues: [], ascii_domain: "", is_idn: false, is_smtputf8: false,
  dns: "skipped", has_mx: false, has_mx_or_a: false, is_null_mx: false, mx_hosts: [],
  is_suspected_typo: false, has_bounced: null, smtp: "skipped", smtp_code: null, is_cached: false,
});

const INVALID_FACTS: VerdictFacts = {
  isValidSyntax: false, dns: "skipped", hasBounced: false, smtp: "skipped", isDisposable: false,
  isRole: false, isFree: false, isSuspectedTypo: false, isUnusualLocal: false,
};

/** Lower-cases the address; the domain keeps the script it was written in (U- or A-labels). */
function normalize(parsed: ParsedAddress): Subject {
  const user = parsed.localpart.toLowerCase();
  const domain = ASCII_RE.test(parsed.domain) ? parsed.asciiDomain : parsed.unicodeDomain;
  return { parsed, user, domain, email: `${user}@${domain}` };
}

function baseResult(input: string, decision: Decision, now: number, subject?: Subject): ValidationResult {
  return {
    ...decision, role: false, free: false, disposable: false, accept_all: false, did_you_mean: null,
    email: subject?.email ?? input.trim().toLowerCase(), user: subject?.user ?? "", domain: subject?.domain ?? "",
    success: true, timeLogged: Math.floor(now / 1000),
    checks: { ...emptyChecks(), ascii_domain: subject?.parsed.asciiDomain ?? "" },
  };
}

function invalidResult(input: string, issues: string[], now: number, parsed?: ParsedAddress): ValidationResult {
  const result = baseResult(input, decideVerdict(INVALID_FACTS), now, parsed && normalize(parsed));
  result.checks.syntax_issues = issues;
  return result;
}

function errorResult(input: string, now: number, subject: Subject): ValidationResult {
  const message = "Validation failed unexpectedly; try again.";
  const decision: Decision = { result: "unknown", reason: "unexpected_error", sendex: 0, message };
  const result = baseResult(input, decision, now, subject);
  result.success = false;
  result.checks.is_valid_syntax = true;
  return result;
}

/** Probing is pointless when it cannot change the verdict, and spends budget on junk. */
const shouldProbe = (hosts: MailHosts, facts: VerdictFacts) =>
  (hosts.kind === "mx" || hosts.kind === "implicit_mx") && !facts.isDisposable && !facts.isSuspectedTypo;

async function gatherFacts(subject: Subject, deps: ValidatorDeps, lookup: Lookup, scope: string | null): Promise<Gathered> {
  const { parsed } = subject;
  const didYouMean = suggestAddress(subject.user, parsed.asciiDomain);
  const facts: VerdictFacts = {
    ...INVALID_FACTS,
    isValidSyntax: true,
    isDisposable: isDisposableDomain(parsed.asciiDomain),
    isRole: isRoleLocalPart(parsed.localpart),
    isFree: isFreeDomain(parsed.asciiDomain),
    isSuspectedTypo: didYouMean !== null,
    isUnusualLocal: parsed.localpart.startsWith('"') || !ASCII_RE.test(parsed.localpart),
  };
  const hasBounced = deps.hasBounced ? await deps.hasBounced(subject.email, scope) : null;
  facts.hasBounced = hasBounced === true;
  // A known hard bounce settles the verdict; DNS and SMTP would only add load.
  if (facts.hasBounced) return { facts, didYouMean, hosts: { kind: "none", hosts: [] }, hasBounced };
  const hosts = await lookup(parsed.asciiDomain);
  facts.dns = hosts.kind;
  if (!deps.probe || !shouldProbe(hosts, facts)) return { facts, didYouMean, hosts, hasBounced };
  const probe = await deps.probe(`${subject.user}@${parsed.asciiDomain}`, hosts.hosts);
  facts.smtp = probe.kind;
  return { facts, didYouMean, hosts, hasBounced, probe };
}

function buildResult(subject: Subject, g: Gathered, now: number): ValidationResult {
  const { facts } = g;
  const result = baseResult(subject.email, decideVerdict(facts), now, subject);
  Object.assign(result, {
    role: facts.isRole, free: facts.isFree, disposable: facts.isDisposable,
    accept_all: facts.smtp === "accept_all", did_you_mean: g.didYouMean,
  });
  Object.assign(result.checks, {
    is_valid_syntax: true,
    is_idn: subject.parsed.asciiDomain.split(".").some((l) => l.startsWith("xn--")),
    is_smtputf8: !ASCII_RE.test(subject.parsed.localpart),
    dns: facts.dns,
    has_mx: facts.dns === "mx",
    has_mx_or_a: facts.dns === "mx" || facts.dns === "implicit_mx",
    is_null_mx: facts.dns === "null_mx",
    mx_hosts: [...g.hosts.hosts],
    is_suspected_typo: facts.isSuspectedTypo,
    has_bounced: g.hasBounced,
    smtp: facts.smtp,
    smtp_code: g.probe?.code ?? null,
  } satisfies Partial<ValidationChecks>);
  return result;
}

/** A copy of a cached verdict, so callers cannot alter the cache through it. */
const fromCache = (r: ValidationResult): ValidationResult => ({
  ...r,
  checks: {
    ...r.checks,
    syntax_issues: [...r.checks.syntax_issues],
    mx_hosts: [...r.checks.mx_hosts],
    is_cached: true,
  },
});

/** A validator over injected DNS, clock, bounce history and (optionally) an SMTP prober. */
export function createValidator(deps: ValidatorDeps): Validator {
  const ttlMs = deps.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const hosts = createMailHostLookup({ resolver: deps.resolver, now: deps.now, timeoutMs: deps.dnsTimeoutMs, ttlMs });
  const lookup: Lookup = (d) => hosts.lookup(d);
  const cache = new TtlCache<ValidationResult>({ now: deps.now, ttlMs, maxEntries: MAX_CACHED_ADDRESSES });
  const inFlight = new Map<string, Promise<ValidationResult>>();

  const run = async (input: string, subject: Subject, scope: string | null, key: string): Promise<ValidationResult> => {
    try {
      const result = buildResult(subject, await gatherFacts(subject, deps, lookup, scope), deps.now());
      // Unknown answers are transient (timeouts, 4xx); asking again later may succeed.
      if (result.result !== "unknown") cache.set(key, result);
      return result;
    } catch {
      return errorResult(input, deps.now(), subject);
    }
  };

  const validate = async (address: string, opts: { domain?: string | null } = {}): Promise<ValidationResult> => {
    const input = typeof address === "string" ? address : "";
    if (input.length > MAX_INPUT_CHARS) {
      return invalidResult(input.slice(0, MAX_INPUT_CHARS), ["address is too long"], deps.now());
    }
    const parsed = parseAddress(input, { shouldCheckSyntax: false });
    if (!parsed) return invalidResult(input, ["is not a valid email address"], deps.now());
    const issues = checkParsedSyntax(parsed).map((i) => i.message);
    if (issues.length > 0) return invalidResult(input, issues, deps.now(), parsed);
    const subject = normalize(parsed);
    // Verdicts are kept per bounce-history scope: one domain's history never answers another's.
    const scope = opts.domain?.toLowerCase() ?? null;
    const key = `${scope ?? "*"} ${subject.email}`;
    const cached = cache.get(key);
    if (cached) return fromCache(cached);
    // Duplicates in a bulk list share one run, so they cost one DNS query and one probe.
    let pending = inFlight.get(key);
    if (!pending) {
      pending = run(input, subject, scope, key).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
  return { validate };
}
