// GET /account and recipient validation in SparkPost's shapes: the account is postern's single
// account (usage counted from accepted events; no plan limits), a verdict maps to valid/neutral/
// risky/undeliverable/typo with delivery_confidence = sendex × 100.
import type { Principal } from "../../core/model.ts";
import type { ValidationResult } from "../../validation/result.ts";
import type { SurfaceDeps } from "../deps.ts";
import { spError } from "./errors.ts";

type Deps = Pick<SurfaceDeps, "validator" | "activity" | "domains" | "now">;

const REASONS: Partial<Record<ValidationResult["reason"], string>> = {
  invalid_email: "Invalid Syntax", invalid_domain: "Invalid Domain", rejected_email: "Invalid Recipient",
};
const RESULTS: Record<ValidationResult["result"], string> = { deliverable: "valid", undeliverable: "undeliverable", risky: "risky", unknown: "neutral" };

/** SparkPost's single-recipient validation body from postern's verdict. */
export function toValidation(v: ValidationResult) {
  // A suggested correction makes it a typo, whatever the mistyped domain's own verdict.
  const result = v.did_you_mean !== null ? "typo" : RESULTS[v.result];
  const reason = result === "undeliverable" ? REASONS[v.reason] ?? "Invalid Recipient" : result === "typo" ? REASONS[v.reason] : undefined;
  return {
    result, valid: v.checks.is_valid_syntax && v.checks.has_mx_or_a, ...(reason ? { reason } : {}),
    is_role: v.role, is_disposable: v.disposable, is_free: v.free, delivery_confidence: Math.round(v.sendex * 100),
    ...(v.did_you_mean ? { did_you_mean: v.did_you_mean } : {}),
  };
}

/** Validates one address; a domain key needs validation turned on for its domain (as on S1/S2). */
export async function validationOf(deps: Deps, principal: Principal, address: string) {
  if (principal.kind === "domain" && principal.domain && !principal.domain.validation) {
    throw spError(403, "1002", "Forbidden.", `email validation is turned off for ${principal.domain.name}`);
  }
  if (!address.trim()) throw spError(400, "1400", "required field is missing", "an address is required");
  return toValidation(await deps.validator.validate(address, { domain: principal.kind === "domain" ? principal.domain?.name ?? null : null }));
}

const DAY_MS = 86_400_000;

async function usage(deps: Deps, domains: string[] | null, now: number) {
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  const d = new Date(now);
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const count = async (begin: number) => {
    const lists = domains ? await Promise.all(domains.map((n) => deps.activity.counts(n, begin, now))) : [await deps.activity.counts(null, begin, now)];
    return lists.flat().filter((c) => c.type === "accepted").reduce((n, c) => n + c.count, 0);
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    timestamp: iso(now),
    // postern has no plan limits: limit 0 means unlimited (domain limits are per domain).
    day: { used: await count(day), limit: 0, start: iso(day), end: iso(day + DAY_MS) },
    month: { used: await count(month), limit: 0, start: iso(month), end: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) },
  };
}

/** The account as SparkPost describes one; `include=usage` adds this month's and today's sends. */
export async function accountOf(deps: Deps, principal: Principal, withUsage: boolean) {
  const domains = principal.kind === "domain" && principal.domain ? [principal.domain] : await deps.domains.list();
  const created = domains.reduce((min, d) => Math.min(min, d.createdAt), deps.now());
  const tracking = domains[0];
  const now = deps.now();
  return {
    customer_id: principal.accountId, company_name: "", country_code: "", status: "active", status_reason_category: "",
    created: new Date(created).toISOString(), updated: new Date(now).toISOString(), tfa_required: false, service_level: "standard",
    subscription: { code: "postern", name: "postern", plan_volume: 0, self_serve: true, type: "default" },
    options: { smtp_tracking_default: false, rest_tracking_default: tracking?.openTracking ?? false, transactional_unsub: false,
      transactional_default: false, initial_open_pixel_tracking: tracking?.openTracking ?? false, click_tracking: tracking?.clickTracking ?? false },
    support: { online: false, phone: false },
    ...(withUsage ? { usage: await usage(deps, principal.kind === "domain" ? domains.map((d) => d.name) : null, now) } : {}),
  };
}
