// Forwards one API request to the nodes of the zone that owns its domain and hands their answer
// back as if it were served here: method, path, query, headers and body go through unchanged,
// both bodies stream (nothing is buffered here beyond what the surface already read), and the
// zone's answer is given the time `timeoutMs` to begin, then as long again for each piece of its
// body (a zone that stalls mid-answer is cut off, not waited on forever). A zone that cannot be reached or does not
// answer in time is a ProxyFailure, which the caller renders in the surface's own error shape.
import type { RemoteZoneRef } from "../../core/zones.ts";

/** Set on every proxied request: a node that does not serve the domain's zone refuses it rather than proxying it again. */
export const PROXIED_HEADER = "x-postern-proxied-from";

export interface ForwardOptions {
  /** The zone this node serves (named in PROXIED_HEADER). */
  fromZone: string;
  /** The client's IP as this node resolved it: passed on in X-Forwarded-For (believed there only from trusted_proxies). */
  clientIp: string;
  requestId: string;
  /** How long the zone may take to begin its answer, and then to send each next piece of its body. */
  timeoutMs: number;
  /** Told when a streaming answer stalled and was cut off (the client's response ends unfinished). */
  onStall?: (detail: string) => void;
}

export interface ProxyFailure {
  kind: "unreachable" | "timeout";
  /** For the log: the zone's address and the network error (the client is told less). */
  detail: string;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) and the ones this hop sets itself.
const DROPPED_REQUEST = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding",
  "upgrade", "host", "accept-encoding", "x-forwarded-for", "x-request-id", PROXIED_HEADER]);
const DROPPED_RESPONSE = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length"]);

/** The zone's address for this request: its url's origin and base path, then the request's path and query. */
export function targetUrl(base: string, req: Request): string {
  const from = new URL(req.url);
  const to = new URL(base);
  return `${to.origin}${to.pathname.replace(/\/+$/, "")}${from.pathname}${from.search}`;
}

function requestHeaders(req: Request, target: string, opts: ForwardOptions): Headers {
  const out = new Headers();
  req.headers.forEach((value, name) => { if (!DROPPED_REQUEST.has(name)) out.set(name, value); });
  // A browser's same-origin Origin (the console's CSRF wall) stays same-origin at the zone's host.
  const origin = req.headers.get("origin");
  if (origin && sameHost(origin, req.headers.get("host") ?? new URL(req.url).host)) out.set("origin", new URL(target).origin);
  out.set("host", new URL(target).host);
  out.set("x-forwarded-for", opts.clientIp);
  out.set("x-request-id", opts.requestId);
  out.set(PROXIED_HEADER, opts.fromZone);
  // Bodies pass through as they are: no compression the zone would add and this node undo.
  out.set("accept-encoding", "identity");
  return out;
}

function sameHost(origin: string, host: string): boolean {
  try { return new URL(origin).host === host; } catch { return false; }
}

/** Sends `req` to `zone`; the zone's Response (streaming), or why there is none. */
export async function forwardToZone(req: Request, zone: RemoteZoneRef, opts: ForwardOptions): Promise<Response | ProxyFailure> {
  const url = targetUrl(zone.url, req);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.body !== null;
  try {
    const res = await fetch(url, {
      method: req.method, headers: requestHeaders(req, url, opts), body: hasBody ? req.body : undefined,
      redirect: "manual", signal: abort.signal,
      duplex: "half", // streams the request body through (Bun and the Fetch standard)
    });
    clearTimeout(timer);
    const headers = new Headers();
    res.headers.forEach((value, name) => { if (!DROPPED_RESPONSE.has(name) && name !== "set-cookie") headers.append(name, value); });
    for (const cookie of res.headers.getSetCookie()) headers.append("set-cookie", cookie);
    const body = res.body ? idleGuard(res.body, opts.timeoutMs, () => {
      abort.abort();
      opts.onStall?.(`${url}: the answer's body stalled for ${opts.timeoutMs} ms`);
    }) : null;
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  } catch (err) {
    clearTimeout(timer);
    if (abort.signal.aborted) return { kind: "timeout", detail: `${url}: no answer within ${opts.timeoutMs} ms` };
    return { kind: "unreachable", detail: `${url}: ${describe(err)}` };
  }
}

/**
 * `body` as it arrives, unless the zone sends nothing for `idleMs` while a piece is wanted: then
 * the upstream is aborted and the stream errors, which ends the client's response unfinished (a
 * chunked answer without its last chunk, a short one: the client sees the cut, not a whole body).
 * Only waits for the zone count; a slow client reading slowly is not the zone's stall.
 */
function idleGuard(body: ReadableStream<Uint8Array>, idleMs: number, onIdle: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const stalled = new Promise<"stalled">((resolve) => { timer = setTimeout(() => resolve("stalled"), idleMs); });
      try {
        const piece = await Promise.race([reader.read(), stalled]);
        if (piece === "stalled") {
          onIdle();
          reader.cancel().catch(() => {});
          controller.error(new Error(`the zone's answer stalled for ${idleMs} ms`));
        } else if (piece.done) controller.close();
        else controller.enqueue(piece.value);
      } catch (err) {
        controller.error(err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

function describe(err: unknown): string {
  const code = (err as { code?: string })?.code;
  return code ? String(code) : (err as Error)?.message ?? String(err);
}

export const isProxyFailure = (x: Response | ProxyFailure): x is ProxyFailure => !(x instanceof Response);
