// Which domains a caller may see, for the surfaces that hide the others (native API, console):
// every domain for an account (primary) key, only its own for a domain (sending) key. Anything
// else answers 404, not 403, so a sending key cannot probe which other domains exist.
import type { Domain, Principal } from "../core/model.ts";
import { notFound } from "../core/errors.ts";
import type { DomainService } from "../core/domains.ts";
import { principalOf } from "./context.ts";
import { seesTenant } from "../core/permissions.ts";

// The tenant rule (core/permissions.ts seesTenant) first: another tenant's domain is as unknown as a missing one.
export const canSee = (p: Principal, d: Domain) => seesTenant(p, d.tenantId) && (p.kind === "account" || p.domain?.id === d.id);

/** The caller's principal and the domain `name`, or a 404 when it is unknown or out of scope. */
export async function visibleDomain(request: Request, domains: Pick<DomainService, "get">, name: string): Promise<{ principal: Principal; domain: Domain }> {
  const principal = principalOf(request);
  const domain = await domains.get(name.trim().toLowerCase());
  if (!domain || !canSee(principal, domain)) throw notFound(`Domain not found: ${name}`);
  return { principal, domain };
}

/** The domains the caller may list. */
export async function visibleDomains(request: Request, domains: Pick<DomainService, "list">): Promise<{ principal: Principal; list: Domain[] }> {
  const principal = principalOf(request);
  return { principal, list: (await domains.list()).filter((d) => canSee(principal, d)) };
}
