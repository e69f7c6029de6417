// The `[server] listen` socket: plain HTTP until the provider has a certificate, HTTPS after, and
// a new certificate swapped in without a restart. Bun.serve's reload() keeps the TLS options it
// started with (checked on Bun 1.4), so a new certificate means a new server on the same port:
// the old one stops accepting and finishes the requests it has, the new one binds at once.
import type { CertificateProvider } from "./provider.ts";
import type { KeyPair } from "./cert-store.ts";
import type { Logger } from "../log.ts";
import type { SniPair } from "./host-certificates.ts";

// How long a keep-alive connection may sit idle before the server closes it (Bun's default: 10 s).
// A client that reuses a pooled connection at the instant the server closes it loses the request
// (ECONNRESET; node:http's Agent does not retry a POST). So the server must outwait the clients'
// pools: Go's DefaultTransport keeps idle connections 90 s, libcurl 118 s, undici 4 s (nginx's
// server waits 75 s). Bun sweeps timeouts on a 4 s tick, so the close comes up to 4 s early (116 to
// 120 s here; 8 to 12 s for the default); its maximum is 255. Idle connections stay bounded.
export const KEEP_ALIVE_IDLE_S = 120;

type Fetch = (req: Request, server: Bun.Server<undefined>) => Response | Promise<Response>;

export interface ListenerOptions {
  host: string;
  port: number;
  fetch: Fetch;
  maxRequestBodySize: number;
  provider: CertificateProvider | null;
  log: Logger;
  /** More certificates served by SNI (tracking hosts'); the provider's is the default. */
  sni?: { pairs(): SniPair[]; onChange(fn: () => void): void };
}

export function createHttpsListener(opts: ListenerOptions) {
  let server: Bun.Server<undefined> | null = null;
  let port = opts.port;
  let secure = false;

  // What the SNI list held when the server started: a change of the main certificate alone is rebound by its own listener.
  const sniKey = () => (opts.sni?.pairs() ?? []).map((p) => `${p.serverName} ${p.cert}`).join("\n");
  let servedSni = "";
  const serve = (pair: KeyPair | null) => (servedSni = sniKey(), Bun.serve({
    hostname: opts.host, port, maxRequestBodySize: opts.maxRequestBodySize, fetch: opts.fetch, idleTimeout: KEEP_ALIVE_IDLE_S,
    error: () => new Response("internal server error", { status: 500 }),
    ...(pair ? { tls: [{ cert: pair.cert, key: pair.key }, ...(opts.sni?.pairs() ?? [])] } : {}),
  }));

  function rebind(pair: KeyPair, attempt = 0) {
    if (!server && attempt === 0) return;
    if (server) void server.stop(false);
    server = null;
    try {
      server = serve(pair);
      secure = true;
    } catch (e) {
      // The port was ours a moment ago: try again shortly rather than give the listener up.
      opts.log.error("could not listen with the new certificate; trying again", { error: String(e), attempt });
      if (attempt < 50) setTimeout(() => rebind(opts.provider?.current() ?? pair, attempt + 1), 200);
    }
  }

  return {
    start(): string {
      const pair = opts.provider?.current() ?? null;
      server = serve(pair);
      secure = pair !== null;
      port = server.port!;
      opts.provider?.onChange((p) => rebind(p));
      // A tracking host's new certificate: the same certificate as default, the SNI list anew.
      opts.sni?.onChange(() => { const p = opts.provider?.current(); if (p && secure && sniKey() !== servedSni) rebind(p); });
      return `${server.hostname}:${server.port}`;
    },
    /** "https" once a certificate serves, "http" before. */
    scheme: () => (secure ? "https" : "http"),
    /** Stops listening; `force` also ends the connections open (a graceful stop first lets them finish, then forces). */
    async stop(force = true) {
      const current = server;
      if (!current) return;
      if (force) server = null;
      await current.stop(force);
    },
  };
}
