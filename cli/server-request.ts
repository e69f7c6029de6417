// Talking to the running server on `[server] listen` from the same machine: HTTPS first (with [tls]
// it serves the public name's certificate, which a loopback address never matches, so the name is
// not checked here), then plain HTTP (no certificate yet, or no [tls]).
import type { Config } from "../src/config/load.ts";

const local = (listen: string) => listen.replace(/^(0\.0\.0\.0|\[::\]):/, "127.0.0.1:");

/** The server's answer, or null when nothing answers on `[server] listen`. */
export async function serverFetch(config: Config, path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response | null> {
  const where = local(config.server.listen);
  const signal = AbortSignal.timeout(init.timeoutMs ?? 5000);
  for (const scheme of ["https", "http"]) {
    try {
      return await fetch(`${scheme}://${where}${path}`, { ...init, signal, ...(scheme === "https" ? { tls: { rejectUnauthorized: false } } : {}) });
    } catch (e) {
      if ((e as Error)?.name === "TimeoutError") throw new Error(`the server on ${where} did not answer in time`);
    }
  }
  return null;
}
