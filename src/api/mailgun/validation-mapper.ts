// Validation verdicts in Mailgun's shapes: /v4/address/validate (result, risk, reason[]) and
// the older /v3/address/private/validate (is_valid, parts); parse → parsed/unparseable strings.
import type { ValidationResult } from "../../validation/result.ts";
import { parseAddress, type ParsedAddressList } from "../../core/address/address.ts";

/** Mailgun v4 result and risk: typos and disposables are do_not_send, accept-all is catch_all. */
function resultAndRisk(v: ValidationResult): { result: string; risk: string } {
  if (v.result === "deliverable") return { result: "deliverable", risk: v.role ? "medium" : "low" };
  if (v.result === "undeliverable") return { result: "undeliverable", risk: "high" };
  if (v.result === "risky") {
    if (v.accept_all) return { result: "catch_all", risk: "medium" };
    if (v.reason === "low_quality") return { result: "do_not_send", risk: "high" };
    return { result: "unknown", risk: "medium" };
  }
  return { result: "unknown", risk: "unknown" };
}

function reasonsOf(v: ValidationResult): string[] {
  const out: string[] = [];
  if (v.reason === "invalid_email") out.push("failed_syntax_check");
  if (v.reason === "invalid_domain") out.push("no_mx");
  if (v.reason === "rejected_email") out.push("mailbox_does_not_exist");
  if (v.disposable) out.push("mailbox_is_disposable_address");
  if (v.role) out.push("mailbox_is_role_address");
  if (v.accept_all) out.push("catch_all");
  if (v.reason === "no_connect" || v.reason === "timeout" || v.reason === "unexpected_error") out.push("no_data");
  return out;
}

export function toV4Validation(address: string, v: ValidationResult) {
  return {
    address, did_you_mean: v.did_you_mean, is_disposable_address: v.disposable, is_role_address: v.role,
    reason: reasonsOf(v), ...resultAndRisk(v), root_address: null,
  };
}

const MAILBOX_VERIFICATION: Record<string, string> = { accept: "true", reject: "false" };

export function toV3Validation(address: string, v: ValidationResult, isMailboxCheck: boolean) {
  const valid = v.checks.is_valid_syntax && v.result !== "undeliverable";
  return {
    address, did_you_mean: v.did_you_mean, is_disposable_address: v.disposable, is_role_address: v.role, is_valid: valid,
    mailbox_verification: isMailboxCheck ? MAILBOX_VERIFICATION[v.checks.smtp] ?? "unknown" : null,
    parts: { display_name: parseAddress(address, { shouldCheckSyntax: false })?.name ?? null, domain: v.checks.is_valid_syntax ? v.domain : null, local_part: v.checks.is_valid_syntax ? v.user : null },
    reason: valid ? null : v.checks.syntax_issues[0] ?? v.message ?? v.reason,
  };
}

export function toParseResult(list: ParsedAddressList) {
  return {
    parsed: list.parsed.map((p) => (p.name ? `${p.name} <${p.email}>` : p.email)),
    unparseable: list.unparseable,
  };
}
