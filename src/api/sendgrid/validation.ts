// POST /v3/validations/email: one address judged by the validator, with SendGrid's verdict shape
// and whether the key's domain has seen it bounce.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { contextOf, principalOf } from "../context.ts";
import { json } from "../errors.ts";
import { invalid } from "../../core/errors.ts";
import { permissions } from "../permission.ts";
import { isObject } from "../wire.ts";
import { readJsonBody } from "./body.ts";
import { methodNotAllowed } from "./mail.ts";
import { toValidationBody } from "./mapper.ts";
import { MSG } from "./model.ts";
import { ANY, VALIDATE, requireValidation } from "./policy.ts";

const MAX_VALIDATION_BODY_BYTES = 64 * 1024;

type Deps = Pick<SurfaceDeps, "validator" | "suppressions">;

export function validationRoutes(deps: Deps) {
  return new Elysia({ name: "sendgrid-validation" }).use(permissions)
    .get("/v3/validations/email", methodNotAllowed, { permission: ANY })
    .post("/v3/validations/email", async ({ request }) => {
      const domain = requireValidation(principalOf(request));
      const body = await readJsonBody(request, MAX_VALIDATION_BODY_BYTES);
      const { email, source } = isObject(body) ? body : {};
      if (typeof email !== "string" || !email.trim()) throw invalid(MSG.validationEmail, "email");
      const result = await deps.validator.validate(email, { domain: domain.name });
      const bounced = result.checks.is_valid_syntax && (await deps.suppressions.get(domain.name, "bounces", result.email)) !== null;
      return json(200, toValidationBody(result, { ip: contextOf(request).ip, source: typeof source === "string" ? source : undefined, hasKnownBounce: bounced }));
    }, { parse: "none", permission: VALIDATE });
}
