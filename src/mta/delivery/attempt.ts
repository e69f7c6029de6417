// One delivery attempt for the recipients of one destination domain, as a list of steps: next
// hops → TLS policy → message bytes (composed, tracked, DKIM-signed) → SMTP per recipient with
// its VERP return path → an outcome per recipient, handed on as it comes. Nothing here writes.
import type { StoredAttachment, StoredMessage, StoredRecipient, ZoneStore } from "../../core/store-port.ts";
import type { Resolver } from "../../dns.ts";
import type { Domain, TlsSession } from "../../core/model.ts";
import type { TlsPolicyName } from "../../core/destination-store.ts";
import type { Logger } from "../../log.ts";
import { resolveNextHops, type Hop, type HopResult } from "./hops.ts";
import { classifyReply, type DeliveryOutcome } from "./outcome.ts";
import type { MessageBuilder } from "../message/builder.ts";
import type { Pool } from "./pool.ts";
import type { TlsDecision, TlsPolicy } from "./tls-policy.ts";
import type { ClientOptions, SmtpError } from "./smtp-client.ts";
import { smtpError } from "./smtp-wire.ts";
import { resultTypeOf, type TlsSessionFact } from "../tls-report/sessions.ts";
import { encodeReturnPath } from "../../inbound/verp.ts";
import { bounceDomainFor } from "../../core/domain-dns.ts";
import { listsAttachments } from "../../core/content.ts";
import type { Hold } from "../queue/holds.ts";
import { createTurns } from "./turns.ts";
import { createLookahead } from "./lookahead.ts";
import { createRecentCache } from "../../core/recent-cache.ts";
import type { EgressSelector } from "../egress/selector.ts";
import type { LocalEnd } from "./pool.ts";

const HOP_CACHE_MS = 300_000;
const HOP_ERROR_CACHE_MS = 30_000;
/** Messages read back for delivery, kept for their other recipients and their attempt after a build ahead (in flight: up to a few dozen). */
const MESSAGE_CACHE_SIZE = 128;
/** Cached messages are dropped past this many bytes (attachments can be large). */
const MESSAGE_CACHE_BYTES = 16 * 1024 * 1024;
const MAX_CACHED_DOMAINS = 10_000;

export interface DeliveryDeps {
  resolver: Resolver;
  routes: Readonly<Record<string, string>>;
  pool: Pool;
  /** Composes and DKIM-signs (on worker threads when configured). */
  builder: MessageBuilder;
  tlsPolicy: TlsPolicy;
  /** VERP: the server secret and the configured bounce domain ("" = bounces.<domain>). */
  verp: { secret: string; bounceDomain: string };
  now: () => number;
  log: Logger;
  /** The sending domain as it is now (a domain disabled or deleted after accept must not send). */
  domainOf: (name: string) => Promise<Domain | null>;
  /** The scheduled-send hold on a message (queue/holds.ts): held mail is not attempted. */
  holdOf?: (message: StoredMessage) => Promise<Hold | null>;
  /** True while many API requests are open: new attempts are paced by the event loop's lag (turns.ts). */
  callersWaiting?: () => boolean;
  /** Picks each attempt's egress source (address and EHLO name) from the message's pool; absent: the machine's default. */
  egress?: EgressSelector;
  /** Each TLS session's outcome under its MX host's policy (TLS-RPT, src/mta/tls-report/sessions.ts). */
  onTlsSession?: (f: TlsSessionFact) => void;
}

/**
 * `retryAt`: the attempt did not happen and must not be retried before then (a warm-up cap: the
 * next UTC hour); nothing reached a receiver, so no attempt is counted and no destination learns from it.
 */
export type AttemptOutcome = DeliveryOutcome & { mx?: string; tls?: boolean | TlsSession; retryAt?: number; sendingIp?: string; ipPool?: string | null };
/** One recipient's outcome; with `hold`, it was not attempted (its batch is paused or cancelled). */
export type Attempt = { recipient: StoredRecipient; message: StoredMessage; outcome: AttemptOutcome; hold?: Hold };

/** The turn of a message built ahead was taken when its build started. */
const NO_TURN = () => {};

const HELD: AttemptOutcome = { kind: "deferred", permanent: false, message: "held: its scheduled-send batch is paused or cancelled" };

interface CachedMessage { message: StoredMessage; attachments: StoredAttachment[]; bytes: number }

export function createDelivery(deps: DeliveryDeps) {
  const yieldToIo = createTurns(deps.callersWaiting);
  const ahead = createLookahead();
  /** Attempts that found their message built ahead (tests and benchmarks read it). */
  let builtAhead = 0;
  const hopCache = new Map<string, { result: HopResult; at: number }>();
  /** The TLS policy last in force per MX host, by domain (for `queue destinations`). */
  const tlsSeen = new Map<string, Record<string, TlsPolicyName>>();
  const messages = createRecentCache<string, CachedMessage>(MESSAGE_CACHE_SIZE, { maxBytes: MESSAGE_CACHE_BYTES, sizeOf: (e) => e.bytes });
  async function hopsFor(domain: string): Promise<HopResult> {
    const hit = hopCache.get(domain);
    const ttl = hit && "error" in hit.result ? HOP_ERROR_CACHE_MS : HOP_CACHE_MS;
    if (hit && deps.now() - hit.at < ttl) return hit.result;
    const result = await resolveNextHops(domain, { resolver: deps.resolver, routes: deps.routes });
    if (hopCache.size >= MAX_CACHED_DOMAINS) hopCache.delete(hopCache.keys().next().value!);
    hopCache.set(domain, { result, at: deps.now() });
    return result;
  }

  async function messageFor(zone: ZoneStore, id: string): Promise<CachedMessage | null> {
    const hit = messages.get(id);
    if (hit) return hit;
    const message = await zone.getMessage(id);
    if (!message) return null;
    const hasAttachments = message.content !== null && listsAttachments(message.content);
    const attachments = hasAttachments ? await zone.getAttachments(message.sendId) : [];
    const entry: CachedMessage = { message, attachments, bytes: message.size + attachments.reduce((n, a) => n + a.data.byteLength, 0) };
    messages.set(id, entry);
    return entry;
  }

  function remember(domain: string, decision: TlsDecision) {
    if (tlsSeen.size >= MAX_CACHED_DOMAINS && !tlsSeen.has(domain)) tlsSeen.delete(tlsSeen.keys().next().value!);
    tlsSeen.set(domain, Object.fromEntries(Object.entries(decision.perHost!).map(([h, p]) => [h, p.policy])));
  }

  /** The connection modes to try on `hop`: its DANE/MTA-STS policy (dane.ts), else the domain's (static routes). */
  function modesFor(hop: Hop, decision: TlsDecision): readonly ClientOptions["tls"][] {
    const p = decision.perHost?.[hop.host];
    const tls = p && "tls" in p ? p.tls : decision.tls;
    return tls === "opportunistic" ? ["opportunistic", "none"] : [tls];
  }

  async function sendVia(decision: TlsDecision, from: string, rcpt: string, bytes: Buffer, perConnection?: number,
    local?: LocalEnd): Promise<AttemptOutcome> {
    let last: SmtpError | null = null;
    let daneFailed = false;
    const domain = rcpt.slice(rcpt.lastIndexOf("@") + 1);
    const session = (hop: Hop, result: string, err?: SmtpError) => {
      const policy = decision.perHost?.[hop.host]?.policy;
      if (policy) deps.onTlsSession?.({ domain, mxHost: hop.host, policy, result, ...(err?.localIp ? { sendingIp: err.localIp } : {}), ...(err?.remoteIp ? { receivingIp: err.remoteIp } : {}),
        ...(policy === "mta-sts" && decision.stsLines ? { policyString: decision.stsLines } : {}) });
    };
    for (const hop of decision.hops) {
      const policy = decision.perHost?.[hop.host];
      // RFC 7672 §2.1.1: a bogus or failed TLSA look-up: this host waits, another MX may still take the mail.
      if (policy && "defer" in policy) { last = smtpError("ETLS", policy.defer, "STARTTLS"); session(hop, "dnssec-invalid"); continue; }
      const dane = policy && "records" in policy ? { records: policy.records, names: policy.names, now: deps.now() } : undefined;
      for (const mode of modesFor(hop, decision)) {
        let client;
        try { client = await deps.pool.acquire(hop, mode, local, dane); } catch (err) {
          last = err as SmtpError;
          if (mode === "dane" && last.code === "ETLS") daneFailed = true;
          if (last.code === "ETLS" && mode !== "opportunistic") session(hop, resultTypeOf(policy && "tls" in policy ? policy.policy : "opportunistic", last.message), last);
          if ((err as SmtpError).code === "ETLS" && mode === "opportunistic") continue; // RFC 7435: fall back to cleartext
          break;
        }
        try {
          const res = await client.send(from, [rcpt], bytes);
          if (client.isSecure && client.sent === 1) session(hop, "success"); // a session is a connection, whatever it carries
          const refused = res.rejected[0];
          const facts = { mx: hop.host, tls: client.tlsInfo ?? false, ...(client.localIp ? { sendingIp: client.localIp } : {}) };
          if (refused) return { ...classifyReply({ responseCode: refused.code, response: refused.response, command: "RCPT TO" }), ...facts };
          return { ...classifyReply({ responseCode: 250, response: res.response }), ...facts };
        } catch (err) {
          const e = err as SmtpError;
          const reply = e.rejectedErrors?.[0] ?? e;
          if (reply.responseCode) {
            return { ...classifyReply({ responseCode: reply.responseCode, response: reply.response, command: e.command }), mx: hop.host, tls: client.tlsInfo ?? false,
              ...(client.localIp ? { sendingIp: client.localIp } : {}) };
          }
          last = e;
          break;
        } finally {
          await deps.pool.release(client, mode, perConnection);
        }
      }
    }
    const outcome = classifyReply({ errorCode: last?.code ?? "ECONNECTION", errorMessage: last?.message ?? "no next hop answered", command: last?.command });
    return daneFailed ? { ...outcome, tls: { version: "", cipher: "", dane: "failed" } } : outcome;
  }

  return {
    /**
     * Attempts every recipient (all of `domain`), `concurrency` at a time, handing each outcome to
     * `onAttempt` as soon as it is known (so it can be written at once, not after the whole group).
     * `perConnection`: the destination's messages_per_connection (default: the pool's).
     */
    async deliverDomain(zone: ZoneStore, domain: string, recipients: StoredRecipient[], concurrency: number, onAttempt: (a: Attempt) => void, perConnection?: number): Promise<void> {
      const hops = await hopsFor(domain);
      const queue = [...recipients];
      const fixed: AttemptOutcome | null = "error" in hops
        ? { kind: hops.error.permanent ? "failed" : "deferred", permanent: hops.error.permanent, enhancedCode: hops.error.enhancedCode, message: hops.error.message }
        : null;
      const decision = "hops" in hops ? await deps.tlsPolicy.decide(domain, hops.hops) : null;
      if (decision?.perHost) remember(domain, decision);
      const worker = async () => {
        for (let r = queue.shift(); r; r = queue.shift()) {
          const early = ahead.take(r.id);
          const built = early ? NO_TURN : await yieldToIo(domain);
          // One recipient's trouble (a database error) must not discard the others' outcomes; it
          // gets none, and its lease brings it back.
          try {
            const entry = await messageFor(zone, r.messageId);
            if (!entry) continue;
            const hold = deps.holdOf ? await deps.holdOf(entry.message) : null;
            if (hold) onAttempt({ recipient: r, message: entry.message, outcome: HELD, hold });
            else onAttempt({ recipient: r, message: entry.message, outcome: fixed ?? await attemptOne(entry, r, decision!, built, perConnection, early) });
          } catch (err) {
            deps.log.error("delivery attempt failed before an outcome", { rcpt: r.id, error: String(err) });
          } finally {
            built();
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, recipients.length)) }, worker));
    },
    /** Builds `row`'s message ahead of its attempt (lookahead.ts): its turn is taken now, not when it is attempted. */
    prepare(zone: ZoneStore, row: StoredRecipient) {
      ahead.start(row.id, async () => {
        const done = await yieldToIo(row.rcptDomain);
        try {
          const entry = await messageFor(zone, row.messageId);
          if (!entry || (deps.holdOf && await deps.holdOf(entry.message))) return null;
          return await deps.builder.build(entry.message, entry.attachments, row.id);
        } finally { done(); }
      });
    },
    /** Forgets what was built ahead for a row handed back unattempted. */
    unprepare: (id: string) => ahead.drop(id),
    /** `builtAhead`: attempts whose message was ready when they began; `ahead`: built and not yet taken. */
    stats: () => ({ builtAhead, ahead: ahead.size() }),
    /** The MX host names of `domain` (cached with its next hops; [] for a route or a failed look-up): what its destination is resolved from. */
    async mxHostsOf(domain: string): Promise<string[]> {
      const r = await hopsFor(domain);
      return "hops" in r ? r.hops.filter((h) => !h.isStaticRoute).map((h) => h.host) : [];
    },
    /** Each MX host of `domain` with the TLS policy last in force for it ({} before its first attempt or for a route). */
    tlsPoliciesOf: (domain: string): Record<string, TlsPolicyName> => tlsSeen.get(domain) ?? {},
    forget(messageId: string) { messages.delete(messageId); },
  };

  /** `built` hands the build slot back (turns.ts) once the message is built, before the SMTP session; `early`: built ahead. */
  async function attemptOne(entry: CachedMessage, r: StoredRecipient, decision: TlsDecision, built: () => void,
    perConnection?: number, early?: Promise<Uint8Array | null>) {
    const sender = await deps.domainOf(entry.message.domain);
    if (!sender) return { kind: "failed" as const, permanent: true, enhancedCode: "5.7.1", message: `sending domain ${entry.message.domain} was deleted` };
    if (sender.state !== "active") return { kind: "deferred" as const, permanent: false, enhancedCode: "4.7.1", message: `sending domain ${entry.message.domain} is ${sender.state}` };
    if (decision.error) return classifyReply({ errorCode: "ETLS", errorMessage: decision.error });
    // The egress source first: mail waiting for a warming address's next hour is not signed for nothing.
    const choice = deps.egress ? await deps.egress.choose(entry.message.extra?.ipPool || sender.pool || "default", entry.message.extra?.sendingIp) : null;
    if (choice && "waitUntil" in choice) return { kind: "deferred" as const, permanent: false, enhancedCode: "4.7.0", message: choice.reason, retryAt: choice.waitUntil };
    const local = choice ? { address: choice.source.address, ehlo: choice.source.ehlo } : undefined;
    let bytes: Buffer;
    try {
      const earlyBytes = early ? await early : null;
      if (earlyBytes) builtAhead++;
      const made = earlyBytes ?? await deps.builder.build(entry.message, entry.attachments, r.id);
      bytes = Buffer.from(made.buffer, made.byteOffset, made.byteLength);
    } catch (err) {
      deps.log.error("could not build message", { msgId: entry.message.id, error: String(err) });
      return classifyReply({ errorCode: "ESTREAM", errorMessage: `could not build the message: ${(err as Error).message}` });
    } finally {
      built();
    }
    const bounceDomain = bounceDomainFor(entry.message.domain, deps.verp.bounceDomain);
    const from = encodeReturnPath({ messageId: entry.message.id, recipientId: r.id, bounceDomain, secret: deps.verp.secret });
    const outcome = await sendVia(decision, from, r.email, bytes, perConnection, local);
    // The source as the receiver saw it (the socket's local address); without a connection, the configured one.
    if (!choice) return outcome;
    const sendingIp = outcome.sendingIp ?? choice.source.address ?? undefined;
    return { ...outcome, ...(sendingIp ? { sendingIp } : {}), ipPool: choice.source.pool };
  }
}

export type Delivery = ReturnType<typeof createDelivery>;
