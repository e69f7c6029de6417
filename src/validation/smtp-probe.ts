// SMTP mailbox probing, done carefully (docs bots-deliverability §4.3): RCPT only, never DATA;
// a random local part first to detect accept-all domains; one probe per domain at a time and a
// per-domain hourly budget; accept-all answers remembered per domain. Time is injected.
import { resolveEgress, type EgressPolicy } from "../net/egress.ts";
import { TtlCache } from "./cache.ts";
import type { ProbeKind, ProbeOutcome } from "./result.ts";
import { openSmtpSession, SmtpSessionError, type SmtpReply, type SmtpSession } from "./smtp-session.ts";

export const SMTP_PORT = 25;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
// RFC 5321 §4.5.3.2 allows minutes per command; a probe that waits that long is useless.
export const DEFAULT_REPLY_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_PROBES_PER_DOMAIN_PER_HOUR = 20;
export const DEFAULT_ACCEPT_ALL_TTL_MS = 7 * 24 * 60 * 60_000;
export const MAX_HOSTS_PER_PROBE = 2;
const HOUR_MS = 60 * 60_000;
const RANDOM_LOCAL_CHARS = 15;
const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

export interface SmtpProberOptions {
  /** EHLO name: a FQDN whose A record has a matching PTR, or gateways will refuse the probe. */
  heloName: string;
  /** Envelope sender of probes: a real, bounce-capable address on the probing host's domain. */
  mailFrom: string;
  now: () => number;
  /** Default 25; tests point it at a local server. */
  port?: number;
  connectTimeoutMs?: number;
  replyTimeoutMs?: number;
  maxProbesPerDomainPerHour?: number;
  acceptAllTtlMs?: number;
  /**
   * The guard on MX hosts: each is resolved once, refused when any address is private, loopback
   * or link-local (unless allowPrivate), and the connection goes to the checked address.
   */
  egress: EgressPolicy;
  /** Random local part for accept-all detection; default 15 lower-case alphanumerics. */
  randomLocalPart?: () => string;
}

export interface SmtpProber {
  /** Asks the MX hosts (in order) whether they take mail for `email`; never throws. */
  probe(email: string, mxHosts: string[]): Promise<ProbeOutcome>;
}

class ProbeStop extends Error {
  constructor(readonly outcome: ProbeOutcome) {
    super(outcome.message ?? outcome.kind);
  }
}

function randomLocal(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_LOCAL_CHARS));
  return Array.from(bytes, (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join("");
}

const outcomeOf = (kind: ProbeKind, reply: SmtpReply, mx: string): ProbeOutcome => ({
  kind,
  code: reply.code,
  ...(reply.enhancedCode ? { enhancedCode: reply.enhancedCode } : {}),
  message: reply.lines.join(" ").slice(0, 300),
  mx,
});

/** Stops the dialogue unless the reply is 2xx: 4xx and policy 5xx say nothing about the mailbox. */
function expectOk(reply: SmtpReply, mx: string): void {
  if (reply.code >= 200 && reply.code < 300) return;
  throw new ProbeStop(outcomeOf(reply.code >= 400 ? "unavailable" : "invalid_smtp", reply, mx));
}

/** RCPT 5xx means "no such mailbox" unless the enhanced code says policy (5.7.x, RFC 3463 §3.8). */
function classifyRcpt(reply: SmtpReply): "ok" | "rejected" | "unavailable" {
  if (reply.code >= 200 && reply.code < 300) return "ok";
  if (reply.code >= 500 && !reply.enhancedCode?.startsWith("5.7.")) return "rejected";
  return "unavailable";
}

async function greet(session: SmtpSession, opts: SmtpProberOptions, mx: string): Promise<boolean> {
  expectOk(await session.read(), mx); // RFC 5321 §4.3.1: 554 here means "go away"
  let hello = await session.command(`EHLO ${opts.heloName}`);
  if (hello.code >= 500) hello = await session.command(`HELO ${opts.heloName}`);
  expectOk(hello, mx);
  return hello.lines.some((l) => /^SMTPUTF8\b/i.test(l));
}

interface Dialogue {
  email: string;
  domain: string;
  isAcceptAllKnown: boolean | undefined;
  needsUtf8: boolean;
}

async function converse(session: SmtpSession, d: Dialogue, opts: SmtpProberOptions, mx: string) {
  const hasUtf8 = await greet(session, opts, mx);
  if (d.needsUtf8 && !hasUtf8) {
    return { outcome: { kind: "unavailable", message: "server lacks SMTPUTF8 (RFC 6531)", mx } as ProbeOutcome };
  }
  expectOk(await session.command(`MAIL FROM:<${opts.mailFrom}>${d.needsUtf8 ? " SMTPUTF8" : ""}`), mx);
  let isAcceptAll = d.isAcceptAllKnown;
  if (isAcceptAll === undefined) {
    const random = await session.command(`RCPT TO:<${(opts.randomLocalPart ?? randomLocal)()}@${d.domain}>`);
    const verdict = classifyRcpt(random);
    if (verdict === "unavailable") return { outcome: outcomeOf("unavailable", random, mx) };
    isAcceptAll = verdict === "ok";
    if (isAcceptAll) return { outcome: outcomeOf("accept_all", random, mx), isAcceptAll };
  }
  if (isAcceptAll) return { outcome: { kind: "accept_all", mx } as ProbeOutcome, isAcceptAll };
  const rcpt = await session.command(`RCPT TO:<${d.email}>`);
  const verdict = classifyRcpt(rcpt);
  const kind: ProbeKind = verdict === "ok" ? "accept" : verdict === "rejected" ? "reject" : "unavailable";
  return { outcome: outcomeOf(kind, rcpt, mx), isAcceptAll };
}

async function probeHost(mx: string, d: Dialogue, opts: SmtpProberOptions) {
  let session: SmtpSession | undefined;
  try {
    const checked = await resolveEgress(mx, opts.egress);
    if ("reason" in checked) return { outcome: { kind: "no_connect", message: `refused: ${checked.reason}`, mx } as ProbeOutcome };
    session = await openSmtpSession({
      host: checked.addresses[0]!,
      port: opts.port ?? SMTP_PORT,
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      replyTimeoutMs: opts.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
    });
    const result = await converse(session, d, opts, mx);
    await session.command("QUIT").catch(() => undefined);
    return result;
  } catch (e) {
    if (e instanceof ProbeStop) return { outcome: e.outcome };
    if (e instanceof SmtpSessionError) return { outcome: { kind: e.kind, message: e.message, mx } as ProbeOutcome };
    return { outcome: { kind: "invalid_smtp", message: String(e), mx } as ProbeOutcome };
  } finally {
    session?.close();
  }
}

/** A prober with per-domain serialisation, an hourly per-domain budget and an accept-all memory. */
export function createSmtpProber(opts: SmtpProberOptions): SmtpProber {
  const budgetPerHour = opts.maxProbesPerDomainPerHour ?? DEFAULT_MAX_PROBES_PER_DOMAIN_PER_HOUR;
  const acceptAll = new TtlCache<boolean>({
    now: opts.now, ttlMs: opts.acceptAllTtlMs ?? DEFAULT_ACCEPT_ALL_TTL_MS, maxEntries: 10_000,
  });
  const recentProbes = new Map<string, number[]>();
  const queues = new Map<string, Promise<unknown>>();

  const spendBudget = (domain: string): boolean => {
    const since = opts.now() - HOUR_MS;
    const times = (recentProbes.get(domain) ?? []).filter((t) => t > since);
    if (times.length >= budgetPerHour) return false;
    times.push(opts.now());
    recentProbes.set(domain, times);
    return true;
  };

  const probeDomain = async (email: string, domain: string, mxHosts: string[]): Promise<ProbeOutcome> => {
    const known = acceptAll.get(domain);
    if (known === true) return { kind: "accept_all", message: "remembered accept-all domain" };
    if (!spendBudget(domain)) return { kind: "unavailable", message: "probe budget for the domain is spent" };
    const dialogue: Dialogue = { email, domain, isAcceptAllKnown: known, needsUtf8: /[^\x00-\x7F]/.test(email) };
    let last: ProbeOutcome = { kind: "no_connect", message: "no MX host to ask" };
    for (const mx of mxHosts.slice(0, MAX_HOSTS_PER_PROBE)) {
      const { outcome, isAcceptAll } = await probeHost(mx, dialogue, opts);
      if (isAcceptAll !== undefined) acceptAll.set(domain, isAcceptAll);
      last = outcome;
      // Only an unreachable host justifies trying the next MX; any answer is the domain's answer.
      if (outcome.kind !== "no_connect" && outcome.kind !== "timeout") break;
    }
    return last;
  };

  return {
    probe(email, mxHosts) {
      const at = email.lastIndexOf("@");
      const domain = email.slice(at + 1).toLowerCase();
      if (at <= 0 || /[\r\n<>]/.test(email) || /[\r\n<>]/.test(opts.mailFrom)) {
        return Promise.resolve({ kind: "invalid_smtp", message: "address cannot be written into an SMTP command" });
      }
      // One conversation per domain at a time: parallel RCPTs look like a harvest attack.
      const previous = queues.get(domain) ?? Promise.resolve();
      const next = previous.then(() => probeDomain(email, domain, mxHosts));
      const settled = next.catch(() => undefined);
      queues.set(domain, settled);
      void settled.then(() => queues.get(domain) === settled && queues.delete(domain));
      return next.catch((e): ProbeOutcome => ({ kind: "invalid_smtp", message: String(e) }));
    },
  };
}
