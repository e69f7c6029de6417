// Core values → native (S2) response shapes: the connection test, domain list items and details,
// DNS records, parsed address lists and validation results. Pure functions, no I/O.
import { createHash } from "node:crypto";
import type { Domain, Principal } from "../../core/model.ts";
import type { DnsRecord } from "../../core/domain-dns.ts";
import type { ParsedAddressList } from "../../core/address/address.ts";
import type { ValidationResult } from "../../validation/result.ts";
import { invalid } from "../../core/errors.ts";
import { required, SUPPRESS_TYPES } from "./model.ts";

/** `Day, DD Mon YYYY HH:MM:SS GMT` (RFC 7231 IMF-fixdate), the date form of every S2 resource. */
export const httpDate = (ms: number) => new Date(ms).toUTCString();

/**
 * The key's stable integer id: the first 48 bits of SHA-256(key id). Key ids are 12 base32
 * characters (60 bits), too wide for a JSON number, and a hash keeps tid stable across restarts.
 */
export function tokenId(keyId: string): number {
  return createHash("sha256").update(keyId).digest().readUIntBE(0, 6);
}

export function toAuth(p: Principal) {
  return {
    auth: {
      cid: p.accountId, did: p.domain?.id ?? 0, tid: tokenId(p.keyId),
      domain: p.domain?.name ?? "", role: p.kind === "domain" ? "sending" : "primary",
    },
  };
}

export function toDomainItem(d: Domain, accountId: number) {
  return {
    cid: accountId, id: d.id, name: d.name, created_at: httpDate(d.createdAt), data_location: d.zone,
    // postern always signs with the domain's own DKIM key, never with a shared one.
    force_dkim_authority: true,
    state: d.state, wildcard: d.wildcard,
  };
}

export interface DomainDetailFacts {
  /** Messages accepted for the domain in its current limit window. */
  used: number;
  hasDkimKey: boolean;
}

export function toDomainDetail(d: Domain, facts: DomainDetailFacts) {
  return {
    channel: "email", name: d.name, created_at: httpDate(d.createdAt), updated_at: httpDate(d.updatedAt),
    data_location: d.zone, dkim_auth: facts.hasDkimKey && d.state === "active",
    // `<used>/<max>` in the domain's window (hour, day, month or a duration); max 0 = no limit.
    limit: `${facts.used}/${d.limitMax}`,
    seedmail: `postmaster@${d.name}`, state: d.state,
    // A domain that adds no List-Unsubscribe links is a transactional one.
    transactional: !d.unsubscribeTracking,
    wildcard: d.wildcard,
  };
}

export interface NativeDnsRecord {
  record_type: string;
  name: string;
  value: string;
  priority?: number;
  purpose: string;
  required: boolean;
  valid: "valid" | "invalid" | "unknown";
}

const toRecord = (r: DnsRecord): NativeDnsRecord => ({
  record_type: r.type, name: r.name, value: r.value, ...(r.priority !== undefined ? { priority: r.priority } : {}),
  purpose: r.purpose, required: r.required, valid: r.valid ?? "unknown",
});

/** Mailgun's split: what makes sending work, and the bounce MX that makes receiving work. */
export function toDnsRecords(records: DnsRecord[]) {
  return {
    sending_dns_records: records.filter((r) => r.purpose !== "bounce-mx").map(toRecord),
    receiving_dns_records: records.filter((r) => r.purpose === "bounce-mx").map(toRecord),
  };
}

export function toParsed(list: ParsedAddressList) {
  return {
    parsed: list.parsed.map((a) => ({ domain: a.domain, email: a.email, localpart: a.localpart })),
    unparseable: list.unparseable,
  };
}

/** The spec's validation result; postern's extra `checks` detail is left out of the native shape. */
export function toValidation(r: ValidationResult) {
  return {
    result: r.result, reason: r.reason, role: r.role, free: r.free, disposable: r.disposable, accept_all: r.accept_all,
    did_you_mean: r.did_you_mean, sendex: r.sendex, email: r.email, user: r.user, domain: r.domain,
    message: r.message, success: r.success, timeLogged: r.timeLogged,
  };
}

/** The `POST /{domain}/suppress` fields → a suppression list and entry (type defaults to unsubscribe). */
export function toSuppression(fields: { address?: string; error?: string; type?: string }) {
  const type = fields.type?.trim().toLowerCase() || "unsubscribe";
  const list = Object.hasOwn(SUPPRESS_TYPES, type) ? SUPPRESS_TYPES[type]! : null;
  if (!list) throw invalid(`type must be one of unsubscribe, bounce or complaint, got "${fields.type}"`, "type");
  const address = required(fields.address, "address");
  // Mailgun records a bounce added by hand with code 550.
  const entry = { address, reason: fields.error?.trim() ?? "", code: list === "bounces" ? "550" : "" };
  return { type, list, entry };
}
