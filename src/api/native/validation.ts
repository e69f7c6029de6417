// GET /{domain}/validate: one address judged by the validator, for a domain with validation on.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { queryText, required } from "./model.ts";
import { toValidation } from "./mapper.ts";
import { visibleDomain, withValidation } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "domains" | "validator">;

export function validationRoutes(deps: Deps) {
  return new Elysia({ name: "native-validation" }).use(permissions)
    .get("/:domain/validate", async ({ request, params, query }) => {
      const domain = withValidation((await visibleDomain(request, deps.domains, params.domain)).domain);
      return toValidation(await deps.validator.validate(required(queryText(query, "address"), "address"), { domain: domain.name }));
    }, { permission: { right: "validation.use", domain: "domain" } });
}
