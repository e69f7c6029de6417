// The resolver every look-up shares (MTA, validation, domain verification, tracking, mailauth):
// our own wire client over the configured servers, with a small TTL-respecting cache so that a
// burst of mail to one domain asks DNS once.
import type { Answer, RecordType } from "dns-packet";
import type { MxRecord, Resolver } from "./types.ts";
import { DnsError, exchange, type DnsServer, type WireAnswer } from "./wire.ts";

export interface WireResolverOptions {
  servers: DnsServer[];
  now: () => number;
  timeoutMs?: number;
  /** Rounds over the server list before giving up. */
  tries?: number;
  /** Upper bound on how long an answer is reused, whatever its TTL. */
  maxTtlSeconds?: number;
  /** How long "no such name/record" is remembered: short, so a record published after a failed
   *  `domain verify` is seen on the next try. */
  negativeTtlSeconds?: number;
  /** Exchange function (tests may count queries); defaults to the wire. */
  exchange?: typeof exchange;
}

/** Errors after which another server may know better. */
const RETRYABLE = new Set(["ETIMEOUT", "ECONNREFUSED", "ESERVFAIL", "EREFUSED", "EBADRESP"]);
const RCODE_ERRORS: Record<string, string> = { NXDOMAIN: "ENOTFOUND", SERVFAIL: "ESERVFAIL", REFUSED: "EREFUSED" };

async function ask(opts: WireResolverOptions, name: string, type: RecordType): Promise<WireAnswer> {
  const ex = opts.exchange ?? exchange;
  let last: DnsError = new DnsError("ECONNREFUSED", "no DNS server configured");
  for (let round = 0; round < (opts.tries ?? 2); round++) {
    for (const server of opts.servers) {
      try {
        const res = await ex(server, name, type, opts.timeoutMs ?? 5000);
        const code = res.rcode === "NOERROR" ? (res.answers.length ? "" : "ENODATA") : (RCODE_ERRORS[res.rcode] ?? "EBADRESP");
        if (!code) return res;
        last = new DnsError(code, `${type} ${name}: ${code}`);
        if (!RETRYABLE.has(code)) throw last;
      } catch (e) {
        if (!(e instanceof DnsError) || !RETRYABLE.has(e.code)) throw e;
        last = e;
      }
    }
  }
  throw last;
}

const txtOf = (a: Answer): string[] => {
  const data = (a as { data: unknown }).data;
  const parts = Array.isArray(data) ? data : [data];
  return parts.map((p) => (Buffer.isBuffer(p) ? p.toString("utf8") : String(p)));
};

export function createWireResolver(opts: WireResolverOptions): Resolver & { ptr(name: string): Promise<string[]> } {
  const maxTtl = opts.maxTtlSeconds ?? 300;
  const negTtl = opts.negativeTtlSeconds ?? 30;
  const cache = new Map<string, { until: number; value: Promise<Answer[]> }>();

  function cached(name: string, type: RecordType): Promise<Answer[]> {
    const key = `${type} ${name.toLowerCase().replace(/\.$/, "")}`;
    const t = opts.now();
    const hit = cache.get(key);
    if (hit && hit.until > t) return hit.value;
    if (cache.size > 10_000) cache.clear(); // a crude bound; entries live minutes at most
    const value = ask(opts, name, type).then(
      (res) => { cache.set(key, { until: opts.now() + Math.min(res.ttl, maxTtl) * 1000, value }); return res.answers; },
      (e: DnsError) => {
        if (e.code === "ENOTFOUND" || e.code === "ENODATA") cache.set(key, { until: opts.now() + negTtl * 1000, value });
        else cache.delete(key); // transient: the next caller asks again
        throw e;
      });
    cache.set(key, { until: Number.POSITIVE_INFINITY, value }); // concurrent callers share one question
    return value;
  }
  const strings = async (name: string, type: RecordType) => (await cached(name, type)).map((a) => String((a as { data: unknown }).data));

  return {
    mx: async (n) => (await cached(n, "MX")).map((a) => {
      const d = (a as { data: { preference: number; exchange: string } }).data;
      return { exchange: d.exchange, priority: d.preference } satisfies MxRecord;
    }),
    txt: async (n) => (await cached(n, "TXT")).map(txtOf),
    a: (n) => strings(n, "A"),
    aaaa: (n) => strings(n, "AAAA"),
    cname: (n) => strings(n, "CNAME"),
    ptr: (n) => strings(n, "PTR"),
  };
}
