// Where mail for a domain goes, from DNS through the injected Resolver: MX by preference, null MX
// (RFC 7505), A/AAAA as the implicit MX (RFC 5321 §5.1). Answers are cached per domain and
// concurrent look-ups of one domain share a query; timeouts and failures are not cached.
import { NOT_FOUND_CODES, type MxRecord, type Resolver } from "../dns.ts";
import { TtlCache } from "./cache.ts";
import type { MailHostsKind } from "./result.ts";

export const DEFAULT_DNS_TIMEOUT_MS = 4_000;
// A domain registered a minute ago should not stay "no such domain" for the full TTL.
export const MAX_NEGATIVE_TTL_MS = 5 * 60_000;
export const MAX_CACHED_DOMAINS = 10_000;

export interface MailHosts {
  kind: MailHostsKind;
  /** MX exchanges by preference, or [domain] for an implicit MX; [] otherwise. */
  hosts: string[];
  /** The DNS error code behind kind "error". */
  errorCode?: string;
}

const TIMEOUT_CODES = new Set(["ETIMEOUT", "ETIMEDOUT"]);
// Bun reports "no MX records" (NODATA) as ENOTFOUND, the same code as a name that does not
// exist: so every not-found MX answer goes on to the A/AAAA fallback (RFC 5321 §5.1).

const errorCodeOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : "EUNKNOWN";

/** Turns MX records into mail hosts: a lone "." (Node gives "") is a null MX (RFC 7505 §3). */
export function interpretMx(records: MxRecord[]): MailHosts {
  const usable = records
    .map((r) => ({ priority: r.priority, host: r.exchange.toLowerCase().replace(/\.$/, "") }))
    .filter((r) => r.host !== "");
  if (usable.length === 0) return { kind: records.length > 0 ? "null_mx" : "none", hosts: [] };
  usable.sort((a, b) => a.priority - b.priority);
  return { kind: "mx", hosts: [...new Set(usable.map((r) => r.host))] };
}

function failureOf(e: unknown): MailHosts | null {
  const code = errorCodeOf(e);
  if (NOT_FOUND_CODES.has(code)) return null;
  if (TIMEOUT_CODES.has(code)) return { kind: "timeout", hosts: [] };
  return { kind: "error", hosts: [], errorCode: code };
}

async function lookupAddressRecords(resolver: Resolver, domain: string): Promise<MailHosts> {
  const [a, aaaa] = await Promise.allSettled([resolver.a(domain), resolver.aaaa(domain)]);
  if ((a.status === "fulfilled" && a.value.length) || (aaaa.status === "fulfilled" && aaaa.value.length)) {
    return { kind: "implicit_mx", hosts: [domain] };
  }
  for (const r of [a, aaaa]) {
    if (r.status === "rejected") {
      const failure = failureOf(r.reason);
      if (failure) return failure;
    }
  }
  return { kind: "none", hosts: [] };
}

async function queryMailHosts(resolver: Resolver, domain: string): Promise<MailHosts> {
  try {
    const hosts = interpretMx(await resolver.mx(domain));
    if (hosts.kind !== "none") return hosts;
  } catch (e) {
    const failure = failureOf(e);
    if (failure) return failure;
  }
  return lookupAddressRecords(resolver, domain);
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export interface MailHostLookupOptions {
  resolver: Resolver;
  now: () => number;
  /** Deadline for the whole look-up (MX, then A/AAAA). Default DEFAULT_DNS_TIMEOUT_MS. */
  timeoutMs?: number;
  /** How long a positive answer is reused. Negative answers: at most MAX_NEGATIVE_TTL_MS. */
  ttlMs: number;
}

export interface MailHostLookup {
  /** Mail hosts for a lower-case A-label domain; never throws. */
  lookup(asciiDomain: string): Promise<MailHosts>;
}

/** A cached, de-duplicated, time-boxed mail-host resolver for validation. */
export function createMailHostLookup(options: MailHostLookupOptions): MailHostLookup {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const cache = new TtlCache<MailHosts>({ now: options.now, ttlMs: options.ttlMs, maxEntries: MAX_CACHED_DOMAINS });
  const inFlight = new Map<string, Promise<MailHosts>>();

  const resolve = async (domain: string): Promise<MailHosts> => {
    const work = queryMailHosts(options.resolver, domain).catch(
      (e): MailHosts => ({ kind: "error", hosts: [], errorCode: errorCodeOf(e) }),
    );
    const hosts = await withTimeout(work, timeoutMs, { kind: "timeout", hosts: [] });
    if (hosts.kind === "mx" || hosts.kind === "implicit_mx") cache.set(domain, hosts);
    else if (hosts.kind === "none" || hosts.kind === "null_mx") {
      cache.set(domain, hosts, Math.min(options.ttlMs, MAX_NEGATIVE_TTL_MS));
    }
    return hosts;
  };

  return {
    lookup(asciiDomain) {
      const cached = cache.get(asciiDomain);
      if (cached) return Promise.resolve(cached);
      let pending = inFlight.get(asciiDomain);
      if (!pending) {
        pending = resolve(asciiDomain).finally(() => inFlight.delete(asciiDomain));
        inFlight.set(asciiDomain, pending);
      }
      return pending;
    },
  };
}
