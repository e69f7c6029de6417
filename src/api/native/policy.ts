// Who may do what on the native API, beyond the permission each route declares: a domain outside
// the caller's scope is a 404 (api/visibility.ts), a feature the domain has not enabled a 402.
import type { Domain } from "../../core/model.ts";
import type { DomainService } from "../../core/domains.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { requireDomainScope } from "../context.ts";

export { visibleDomain, visibleDomains } from "../visibility.ts";

/** The domain `name` when its validation is on, else the spec's 402. */
export function withValidation(domain: Domain): Domain {
  if (!domain.validation) throw new AppError("payment_required", `Email validation is not enabled for domain ${domain.name}`);
  return domain;
}

/** The domain `name` for the bot API: in the caller's scope (403), existing (404), bot detection on (402). */
export async function botDomain(request: Request, domains: Pick<DomainService, "get">, name: string): Promise<Domain> {
  requireDomainScope(request, name);
  const d = await domains.get(name);
  if (!d) throw notFound(`domain ${name} not found`);
  if (!d.botDetection) throw new AppError("payment_required", `bot detection is not enabled for ${name}`);
  return d;
}
