// HTTP(S) requests to customer-given URLs (webhooks, callback URLs, OAuth token URLs, pings):
// the host is resolved and checked once (egress.ts) and the connection goes to that checked
// address, while the Host header and the TLS server name (SNI and certificate check) stay the
// URL's name. node:http(s) `lookup` does the pinning; fetch cannot. No redirects are followed,
// the answer is read up to a size cap, and the whole exchange has one deadline.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { EgressError, parseEgressUrl, resolveEgress, type EgressPolicy } from "./egress.ts";

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export interface PinnedRequestOptions extends EgressPolicy {
  timeoutMs: number;
  /** Bytes of the answer kept; the rest is not read (default 64 KiB). */
  maxResponseBytes?: number;
  /** Extra trusted CA certificates (PEM), for tests with a private CA; default the system's. */
  ca?: string;
}

export interface PinnedResponse {
  status: number;
  headers: Record<string, string>;
  /** The answer's start, at most maxResponseBytes, as text. */
  body: string;
  ok: boolean;
}

export interface OutboundRequest { method?: string; headers?: Record<string, string>; body?: string | Uint8Array }

/** Error of a request that hit its deadline (name "TimeoutError", as fetch's). */
const timeoutError = (ms: number) => Object.assign(new Error(`no answer within ${Math.round(ms / 100) / 10} s`), { name: "TimeoutError", code: "ETIMEDOUT" });

type LookupCallback = (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A lookup that answers every name with the one checked address. */
function pinnedLookup(address: string) {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_host: string, opts: { all?: boolean } | LookupCallback, cb?: LookupCallback) => {
    const done = (typeof opts === "function" ? opts : cb)!;
    if (typeof opts === "object" && opts?.all) done(null, [{ address, family }]);
    else done(null, address, family);
  };
}

const MAX_AGENTS = 500;
const agents = new Map<string, HttpAgent>();

/**
 * A keep-alive agent per URL origin and checked address: its sockets only ever go to that address,
 * so reusing them keeps the pin, and a busy target is not a new TCP (and TLS) handshake per POST.
 */
function agentFor(url: URL, address: string, ca?: string): HttpAgent {
  const key = `${url.protocol}//${url.host}@${address}${ca ? `#${ca.length}:${ca.slice(-64)}` : ""}`;
  let agent = agents.get(key);
  if (agent) return agent;
  if (agents.size >= MAX_AGENTS) { const [k, old] = agents.entries().next().value!; agents.delete(k); old.destroy(); }
  const opts = { keepAlive: true, maxFreeSockets: 4, timeout: 30_000, lookup: pinnedLookup(address) as never, ...(ca ? { ca } : {}) };
  agent = url.protocol === "https:" ? new HttpsAgent(opts) : new HttpAgent(opts);
  agents.set(key, agent);
  return agent;
}

async function readCapped(res: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    const room = max - size;
    if (room > 0) chunks.push(chunk.subarray(0, room));
    size += chunk.length;
    if (size >= max) { res.destroy(); break; }
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** POSTs (or `init.method`s) to `url` through the checked address; throws EgressError, TimeoutError or a network error. */
export async function pinnedRequest(url: string, init: OutboundRequest, opts: PinnedRequestOptions): Promise<PinnedResponse> {
  const parsed = parseEgressUrl(url);
  if (!(parsed instanceof URL)) throw new EgressError(parsed);
  const resolved = await resolveEgress(parsed.hostname, opts);
  if ("reason" in resolved) throw new EgressError(resolved);
  const address = resolved.addresses[0]!;
  const send = parsed.protocol === "https:" ? httpsRequest : httpRequest;
  const max = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise<PinnedResponse>((resolve, reject) => {
    const req = send(parsed, { method: init.method ?? "POST", headers: init.headers, lookup: pinnedLookup(address) as never, agent: agentFor(parsed, address, opts.ca), ...(opts.ca ? { ca: opts.ca } : {}) }, (res) => {
      readCapped(res, max).then((body) => {
        clearTimeout(timer);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
        const status = res.statusCode ?? 0;
        resolve({ status, headers, body, ok: status >= 200 && status < 300 });
      }, (e) => { clearTimeout(timer); reject(e); });
    });
    const timer = setTimeout(() => { const e = timeoutError(opts.timeoutMs); req.destroy(e); reject(e); }, opts.timeoutMs);
    req.on("error", (e) => { clearTimeout(timer); reject(e); });
    req.end(init.body);
  });
}
