// The one certificate provider: the HTTPS listener and the inbound SMTP listener ask it for the
// current certificate and are told when it changes. Where certificates come from (an ACME CA,
// files of the operator's) is a `CertSource`; this file only keeps the state, checks on a timer
// and retries failures with backoff while the certificate it has keeps serving.
import type { KeyPair } from "./cert-store.ts";
import { certInfo, keyMatches, type CertInfo } from "./cert-info.ts";
import type { Logger } from "../log.ts";

export interface CertSource {
  /** The certificate kept (stored ACME certificate, the configured files), or null. Throws when unreadable. */
  load(): Promise<KeyPair | null>;
  /** True when `pair` should be replaced by `obtain()` (ACME: due for renewal, or other names). */
  due(info: CertInfo, now: number): boolean;
  /** Obtains and keeps a new certificate (ACME); absent for sources that cannot. `current`: what serves now. */
  obtain?(opts: { current: CertInfo | null; now: number }): Promise<KeyPair>;
  /** How long between checks when all is well. */
  checkEveryMs: number;
  /** The delay before the next attempt after `failures` failures in a row ending with `error`. */
  retryDelayMs(failures: number, error: unknown): number;
  describe(error: unknown): string;
}

export interface TlsHealth { state: "ok" | "pending" | "error"; error?: string; not_after?: string }
export interface RenewResult { ok: boolean; error?: string; serial?: string; not_after?: string }

export type CertificateProvider = ReturnType<typeof createCertificateProvider>;

export function createCertificateProvider(deps: { source: CertSource; now: () => number; log: Logger }) {
  const { source, log } = deps;
  let current: { pair: KeyPair; info: CertInfo } | null = null;
  let lastError: string | null = null;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const listeners: ((pair: KeyPair) => void)[] = [];

  function swap(pair: KeyPair, info: CertInfo) {
    if (current?.pair.cert === pair.cert && current.pair.key === pair.key) return;
    current = { pair, info };
    log.info("certificate in use", { names: info.names.join(","), serial: info.serial, not_after: new Date(info.notAfter).toISOString() });
    for (const fn of listeners) {
      try { fn(pair); } catch (e) { log.error("a listener refused the new certificate", { error: String(e) }); }
    }
  }

  async function loadKept(): Promise<void> {
    const kept = await source.load();
    if (!kept) return;
    if (!keyMatches(kept)) throw new Error("the certificate and the key do not match (a file being replaced?)");
    swap(kept, certInfo(kept.cert));
  }

  async function run(force: boolean): Promise<void> {
    try {
      await loadKept();
      const obtain = source.obtain;
      if (obtain && (force || !current || source.due(current.info, deps.now()))) {
        const pair = await obtain({ current: current?.info ?? null, now: deps.now() });
        swap(pair, certInfo(pair.cert));
      }
      lastError = null;
      failures = 0;
    } catch (e) {
      failures++;
      lastError = source.describe(e);
      log.error("certificate check failed; the current certificate (if any) keeps serving", { error: lastError, failures });
      throw e;
    }
  }

  /** One check at a time; a forced renewal waits for a running check, then runs its own. */
  async function check(force = false): Promise<void> {
    while (running) await running.catch(() => {});
    running = run(force).finally(() => { running = null; schedule(); });
    return running;
  }

  function schedule() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    const delay = lastError ? source.retryDelayMs(failures, lastError) : source.checkEveryMs;
    timer = setTimeout(() => void check().catch(() => {}), delay);
    timer.unref?.();
  }

  return {
    current: (): KeyPair | null => current?.pair ?? null,
    info: (): CertInfo | null => current?.info ?? null,
    /** Called with every new certificate, after the first one too. */
    onChange(fn: (pair: KeyPair) => void) { listeners.push(fn); },
    health(): TlsHealth {
      const notAfter = current ? { not_after: new Date(current.info.notAfter).toISOString() } : {};
      if (lastError) return { state: "error", error: lastError, ...notAfter };
      return current ? { state: "ok", ...notAfter } : { state: "pending" };
    },
    /**
     * Loads what is kept (so listeners start with it), then checks in the background: an order
     * never holds up the start. Never throws: a failure is in health() and retried.
     */
    async start() {
      stopped = false;
      await loadKept().catch((e) => { lastError = source.describe(e); });
      void check().catch(() => {});
    },
    async renew(force: boolean): Promise<RenewResult> {
      try {
        await check(force);
        return { ok: true, serial: current?.info.serial, not_after: current ? new Date(current.info.notAfter).toISOString() : undefined };
      } catch (e) {
        return { ok: false, error: source.describe(e) };
      }
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
