// Outbound connections: reused for several messages to the same next hop from the same egress
// source, bounded globally (mta.max_connections) and per host and source; callers wait for a slot.
// A destination's own connection limit is kept by the scheduler, which starts no more attempts to it
// than its concurrency allows.
import { SmtpClient, type ClientOptions } from "./smtp-client.ts";
import type { Hop } from "./hops.ts";

/** The local end of a connection: the egress source's address (absent: the machine's default) and EHLO name. */
export interface LocalEnd { address?: string | null; ehlo?: string }

const IDLE_CLOSE_MS = 5_000;

export interface PoolOptions {
  hostname: string;
  maxTotal: number;
  maxPerHost: number;
  messagesPerConnection: number;
}

interface HostState { open: number; idle: { client: SmtpClient; timer: ReturnType<typeof setTimeout> }[]; waiters: (() => void)[] }

export function createPool(opts: PoolOptions) {
  const hosts = new Map<string, HostState>();
  let total = 0;
  /** Connections handed out and not yet returned; `abortAll` drops them. */
  const busy = new Set<SmtpClient>();
  let aborted = false;
  const keyOf = (hop: Hop, tls: ClientOptions["tls"], local?: LocalEnd) => `${local?.address ?? ""}|${local?.ehlo ?? ""}|${hop.host}:${hop.port}:${tls}`;
  const stateOf = (key: string) => {
    let s = hosts.get(key);
    if (!s) hosts.set(key, (s = { open: 0, idle: [], waiters: [] }));
    return s;
  };

  /** A global slot came free: wake a waiter whose host has room (one at its host cap would only wait again). */
  function wakeOne() {
    for (const s of hosts.values()) {
      if (s.waiters.length && (s.open < opts.maxPerHost || s.idle.length)) return s.waiters.shift()!();
    }
  }

  function forget(key: string) {
    const s = stateOf(key);
    s.open--;
    total--;
    (s.waiters.shift() ?? wakeOne)();
  }

  return {
    /** A connection to `hop`: an idle one, a new one when limits allow, else after waiting. Throws on connect failure. */
    /** `dane`: the TLSA records a "dane" connection must match (the same host's records, so the key need not carry them). */
    async acquire(hop: Hop, tls: ClientOptions["tls"], local?: LocalEnd, dane?: ClientOptions["dane"]): Promise<SmtpClient> {
      const key = keyOf(hop, tls, local);
      const s = stateOf(key);
      for (;;) {
        if (aborted) throw new Error("the MTA is stopping: attempt ended, the recipient stays queued");
        const idle = s.idle.pop();
        if (idle) {
          clearTimeout(idle.timer);
          if (!idle.client.isBroken) { busy.add(idle.client); return idle.client; }
          forget(key);
          continue;
        }
        if (s.open < opts.maxPerHost && total < opts.maxTotal) break;
        await new Promise<void>((resolve) => s.waiters.push(resolve));
      }
      s.open++;
      total++;
      try {
        const client = await SmtpClient.open(hop, { hostname: local?.ehlo || opts.hostname, tls, localAddress: local?.address ?? undefined, ...(dane ? { dane } : {}) }, local);
        busy.add(client);
        return client;
      } catch (err) {
        forget(key);
        throw err;
      }
    },

    /** Returns a connection: kept idle for reuse, or closed when broken or used up (`perConnection`: the destination's limit). */
    async release(client: SmtpClient, tls: ClientOptions["tls"], perConnection = opts.messagesPerConnection) {
      const key = keyOf(client.hop, tls, client.local);
      const s = stateOf(key);
      busy.delete(client);
      if (aborted) client.isBroken = true;
      if (client.isBroken || client.sent >= perConnection) {
        client.close();
        return forget(key);
      }
      // After a completed DATA the session is ready for the next MAIL FROM; RSET only after a refusal.
      if (client.needsReset) await client.reset();
      if (client.isBroken) { client.close(); return forget(key); }
      const waiter = s.waiters.shift();
      const timer = setTimeout(() => {
        const i = s.idle.findIndex((x) => x.client === client);
        if (i >= 0) { s.idle.splice(i, 1); client.close(); forget(key); }
      }, IDLE_CLOSE_MS);
      s.idle.push({ client, timer });
      waiter?.();
    },

    closeAll() {
      for (const [key, s] of hosts) {
        for (const { client, timer } of s.idle.splice(0)) { clearTimeout(timer); client.close(); forget(key); }
      }
    },

    /** Ends every attempt on the wire and refuses new ones (a stop past its grace; KumoMTA's shutdown does the same). */
    abortAll() {
      aborted = true;
      for (const client of busy) client.abort();
      busy.clear();
      this.closeAll();
      for (const s of hosts.values()) for (const w of s.waiters.splice(0)) w();
    },

    stats: () => ({ open: total }),
  };
}

export type Pool = ReturnType<typeof createPool>;
