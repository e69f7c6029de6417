// Who may do what in the console: the one permission model of every surface (core/permissions.ts).
// Each console route declares its right, key kind and domain parameter (`permission` option of
// api/permission.ts); what is left here is reading the domain a route acts on (404 when unknown)
// and the grants a new key may be given: postern's rights.
import type { Domain, Principal } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";
import type { DomainService } from "../../core/domains.ts";
import { RIGHTS } from "../../core/grants.ts";
import { visibleDomain } from "../visibility.ts";

/** The grants a key can be given in the console: postern's rights (core/grants.ts). */
export const CONSOLE_GRANTS: string[] = [...RIGHTS];

/** The domain `name` and the caller (404 when unknown or out of its scope, as on the native API). */
export function domainFor(request: Request, domains: DomainService, name: string): Promise<{ principal: Principal; domain: Domain }> {
  return visibleDomain(request, domains, name);
}

/** The JSON body's text field `name` (trimmed); "" when absent. */
export function field(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | null)?.[name];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") throw invalid(`${name} must be text`, name);
  return String(v).trim();
}

export function requiredField(body: unknown, name: string): string {
  const v = field(body, name);
  if (!v) throw invalid(`${name} is required`, name);
  return v;
}
