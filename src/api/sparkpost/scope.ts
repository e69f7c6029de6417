// Which domains a SparkPost request acts on: the `/{domain}/…` path prefix of the spec when given,
// else the key's own domain for a domain key, else every domain of the account (SparkPost lists
// are account-wide).
import type { Domain } from "../../core/model.ts";
import type { DomainService } from "../../core/domains.ts";
import { principalOf, requireDomainScope } from "../context.ts";
import { notFoundError } from "./errors.ts";

/** The domain named in the path, after checking the key may act on it. */
export async function pathDomain(request: Request, domains: DomainService, name: string): Promise<Domain> {
  requireDomainScope(request, name);
  const domain = await domains.get(name.toLowerCase());
  if (!domain) throw notFoundError(`Domain '${name}' does not exist`);
  return domain;
}

/**
 * The domains in scope: the path's, the domain key's, or for an account key every domain whose
 * zone is served here (the data read is zone data; requests for one domain of another zone were
 * proxied there). `everyZone` lists every zone's domains (sending-domains: control data).
 */
export async function scopedDomains(request: Request, domains: DomainService, name?: string, opts: { everyZone?: boolean } = {}): Promise<Domain[]> {
  if (name) return [await pathDomain(request, domains, name)];
  const principal = principalOf(request);
  if (principal.kind === "domain") return principal.domain ? [principal.domain] : [];
  return opts.everyZone ? domains.list() : domains.listServed();
}
