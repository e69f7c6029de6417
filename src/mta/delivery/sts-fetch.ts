// MTA-STS policy discovery and fetch (RFC 8461 §3), keeping the policy's text. TLS-RPT reports an
// MTA-STS policy as its lines as served (RFC 8460 §4.4 policy-string); mailauth's getPolicy returns
// only the fields it parsed, so a policy whose lines come in another order than its re-assembly
// (max_age before the mx lines, an extension line, CRLF) was reported as a policy nobody served.
// The TXT record's discovery, the parsing and the MX matching stay mailauth's (resolvePolicy,
// parsePolicy, validateMx); this module owns the HTTPS GET and the cache rules of §5.1.
import { request } from "node:https";
import type { IncomingMessage } from "node:http";
import { domainToASCII } from "node:url";
import { toMailauthResolver, type Resolver } from "../../dns.ts";

/** A policy as mailauth parses it, with its id, when it stops being valid, and its lines as served. */
export interface StsPolicy { id: string | false; mode: string; mx?: string[]; maxAge?: number; version?: string; expires: number; lines?: string[] }

/** RFC 8461 §3.3: at most 64 KB; one minute is its upper bound, ten seconds is ours (a delivery waits for it). */
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;
/** A policy that could not be fetched is tried again after this long (no valid cached one to apply meanwhile). */
const RETRY_MS = 3_600_000;

type MtaSts = typeof import("mailauth/lib/mta-sts.js");
/** mailauth's MTA-STS module, loaded on the first look-up: about 20 MB of a server's memory, for a server that may route statically. */
export const mtaSts = (): MtaSts => require("mailauth/lib/mta-sts.js") as MtaSts;

const notFound = (e: unknown) => ["ENOTFOUND", "ENODATA"].includes((e as { code?: string })?.code ?? "");

/** The policy host's first address, IPv4 first; null when it has none. */
async function policyHostAddress(host: string, resolver: Resolver): Promise<string | null> {
  for (const look of [resolver.a, resolver.aaaa]) {
    try {
      const found = await look.call(resolver, host);
      if (found.length) return found[0]!;
    } catch (e) { if (!notFound(e)) throw e; }
  }
  return null;
}

/** GET https://mta-sts.<domain>/.well-known/mta-sts.txt from `address`: a verified certificate for the policy host, 200, at most 64 KB; no redirect. */
function getPolicyText(domain: string, address: string): Promise<string> {
  const host = `mta-sts.${domain}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port: 443, servername: host, headers: { host }, path: "/.well-known/mta-sts.txt", method: "GET",
      rejectUnauthorized: true, agent: false, timeout: TIMEOUT_MS }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) { res.resume(); reject(new Error(`HTTP ${res.statusCode} from https://${host}/.well-known/mta-sts.txt`)); return; }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) req.destroy(new Error(`the policy of ${domain} is larger than ${MAX_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      res.on("error", reject);
    });
    const timer = setTimeout(() => req.destroy(new Error(`the policy of ${domain} took over ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    req.on("timeout", () => req.destroy(new Error(`the policy host of ${domain} went quiet`)));
    req.on("error", reject);
    req.on("close", () => clearTimeout(timer));
    req.end();
  });
}

/** The policy's lines as served: each line without its line end, blank lines left out. */
export const policyLines = (text: string): string[] => text.split(/\r?\n/).filter((l) => l.trim() !== "");

/**
 * The policy of `domain` now, given the one known before (RFC 8461 §3, §5.1): the known one while
 * valid and its id unchanged; a fetched one; the known one again when a new one cannot be had;
 * else "none" (no policy, or none to be had for RETRY_MS).
 */
export async function fetchStsPolicy(domain: string, known: StsPolicy | null, deps: { resolver: Resolver; now: () => number }): Promise<StsPolicy> {
  const now = deps.now();
  const valid = known && known.id && known.expires > now ? known : null;
  let id: string | false;
  try { id = await mtaSts().resolvePolicy(domain, { resolver: toMailauthResolver(deps.resolver) as never }) as string | false; } catch {
    return valid ?? { id: false, mode: "none", expires: now + RETRY_MS };
  }
  if (!id) return valid ?? { id: false, mode: "none", expires: now };
  if (valid?.id === id) return valid;
  try {
    // The policy host's name as DNS and the certificate spell it (an IDN as its A-label).
    const name = domainToASCII(domain.toLowerCase().replace(/\.$/, "")) || domain.toLowerCase();
    const address = await policyHostAddress(`mta-sts.${name}`, deps.resolver);
    if (!address) return valid ?? { id: false, mode: "none", expires: now };
    const text = await getPolicyText(name, address);
    const parsed = mtaSts().parsePolicy(text) as Omit<StsPolicy, "id" | "expires" | "lines">;
    return { ...parsed, id, expires: now + (parsed.maxAge ?? 0) * 1000, lines: policyLines(text) };
  } catch {
    // A cached policy that enforces something goes on being applied; otherwise no policy until the retry.
    return valid && valid.mode !== "none" ? valid : { id, mode: "none", expires: now + RETRY_MS };
  }
}
