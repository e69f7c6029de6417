// The nouns of the doctor (contract §13): a check is an id, what it runs over and a pure
// judgement from what it looked up to a verdict. Looking up never throws: a failure is a fact the
// judgement reads (an unanswered probe is `unknown`, never `ok`).
import type { Resolver } from "../dns.ts";

export type Severity = "ok" | "warn" | "error" | "unknown";

export interface Verdict {
  severity: Severity;
  summary: string;
  /** One line a sysadmin can act on; "" when nothing is to be done. */
  fix: string;
  data: Record<string, unknown>;
}

/** One line of `postern doctor --json` and `GET /doctor`. */
export interface CheckResult extends Verdict {
  id: string;
  subject: string;
}

/** The machine: one subject for checks of the whole server (port 25). */
export interface MachineSubject { kind: "machine"; name: string }
/** An address mail leaves from, with the EHLO name it speaks there. */
export interface EgressSubject { kind: "egress"; name: string; address: string; ehlo: string }
/** A sending domain with the names it sends, bounces and tracks under. */
export interface DomainSubject { kind: "domain"; name: string; bounceDomain: string; trackingHost: string }
export type Subject = MachineSubject | EgressSubject | DomainSubject;
export type SubjectKind = Subject["kind"];

/** What every look-up may use; built per run by context.ts. */
export interface DoctorContext {
  resolver: Resolver;
  now: () => number;
  /** Timeout of one probe (TCP, TLS); DNS has the resolver's own. */
  probeTimeoutMs: number;
  mtaHostname: string;
  /** `[doctor] port25_probe` as host and port. */
  port25: { host: string; port: number };
  /** "This server's addresses" (contract §13): `[doctor] public_addresses`, else the egress addresses and mta.hostname's A/AAAA. */
  serverAddresses(): Promise<Set<string>>;
  /** The egress addresses: subjects of ptr, ipv6 and the IP blocklists, and the addresses SPF is evaluated for. */
  egress(): Promise<EgressSubject[]>;
  /** The published DKIM keys of a domain: selector → the p= value we hold (the injection point for the key lifecycle);
   *  `pending`: a new key not yet seen in DNS (its absence is a warn: it does not sign until it is). */
  publishedKeys(domain: string): Promise<{ selector: string; record: string; pending?: boolean }[]>;
  /** `[server] public_url` when it is https: the tracking check then verifies the host's certificate. */
  httpsTracking: boolean;
  /** `[mta] dane` and a fresh probe of the resolver (root DNSKEY with AD, the broken name SERVFAIL). */
  dnssec: { mode: "auto" | "on" | "off"; probe(): Promise<{ state: "on" | "off"; reason: string }> };
  /** The blocklist look-ups of this run (zone self-tests are asked once per run). */
  blocklists: BlocklistLookup;
}

/** A check: `look` gathers facts for one subject, `judge` turns them into verdicts (pure). */
export interface Check<F = never> {
  id: string;
  over: SubjectKind;
  /** When there is nothing to run over (no egress address could be found): an `unknown` saying this, never silence. */
  absent?: string;
  look(ctx: DoctorContext, subject: never): Promise<F>;
  /** One verdict, or several with their own subjects (a domain's DKIM selectors, SPF's two names). */
  judge(facts: F, subject: never): Verdict | (Verdict & { subject: string })[];
}

export type BlocklistKind = "ip" | "domain";
export type BlocklistState = "listed" | "clear" | "unknown";

/** One (subject, zone) answer. */
export interface BlocklistAnswer {
  subject: string;
  kind: BlocklistKind;
  zone: string;
  state: BlocklistState;
  /** The A records answered ("127.0.0.2"), "" for none. */
  answer: string;
  /** Why the state is unknown (or what a listing's answer means), "" otherwise. */
  cause: string;
}

export interface BlocklistLookup {
  ask(subject: string, kind: BlocklistKind): Promise<BlocklistAnswer[]>;
}

/** A check over a concrete subject type, listed in the registry as a Check of anything. */
export function defineCheck<S extends Subject, F>(c: {
  id: string; over: S["kind"]; absent?: string;
  look(ctx: DoctorContext, subject: S): Promise<F>;
  judge(facts: F, subject: S): Verdict | (Verdict & { subject: string })[];
}): Check<F> {
  return c as unknown as Check<F>;
}
