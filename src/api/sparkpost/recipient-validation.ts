// /api/v1/recipient-validation/single/{address} (GET or POST) in SparkPost's shape: a verdict maps
// to valid/neutral/risky/undeliverable/typo with delivery_confidence = sendex × 100.
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { ValidationResult } from "../../validation/result.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { spError } from "./errors.ts";
import { need } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "validator">;
const VALIDATE = { permission: need("validation.use") };

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

export function recipientValidationRoutes(deps: Deps) {
  const validate = async ({ request, params }: { request: Request; params: { address: string } }) =>
    json(200, { results: await validationOf(deps, principalOf(request), params.address) });
  return new Elysia({ name: "sparkpost-recipient-validation" }).use(permissions)
    .get("/recipient-validation/single/:address", validate, VALIDATE)
    .post("/recipient-validation/single/:address", validate, VALIDATE);
}
