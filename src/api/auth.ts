// Credential extractors, one per surface (contract §4), all ending in access.authenticate.
import type { Principal } from "../core/model.ts";
import type { Surface } from "./surfaces.ts";

function basicPassword(header: string, user?: string): string | null {
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  const [name, pass] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if (user !== undefined) return name === user ? pass : null;
  // SparkPost accepts `Basic base64(key:)`: the key is the user name, the password empty.
  return pass || name;
}

/** The key a request presents to `surface`, or null. */
export function extractKey(surface: Surface, headers: Headers): string | null {
  const authz = headers.get("authorization") ?? "";
  switch (surface) {
    case "sendgrid": return /^Bearer\s+(\S+)$/i.exec(authz)?.[1] ?? null;
    case "mailgun": return basicPassword(authz, "api");
    case "sparkpost":
      if (/^Basic\s/i.test(authz)) return basicPassword(authz);
      if (/^Bearer\s/i.test(authz)) return authz.replace(/^Bearer\s+/i, "").trim();
      return authz.trim() || null;
    case "native": return headers.get("ov-token")?.trim() || null;
    default: return null;
  }
}

/**
 * The tenant a request asks to act for, read from the surface's vendor header: the one place each
 * surface's header is read (handlers never see it; core/permissions.ts actFor decides). SendGrid's
 * `on-behalf-of` (a subuser's username) does not apply to /v3/mail/send, as on SendGrid; Mailgun's
 * `X-Mailgun-On-Behalf-Of` applies everywhere, sending included; SparkPost's `X-MSYS-SUBACCOUNT`
 * is an id, and its GETs without the header read every tenant; the native API's `X-Postern-Tenant`
 * takes an id or a name (docs/tenants.md).
 */
export function tenantAsk(surface: Surface, path: string, method: string, headers: Headers): TenantAsk {
  const value = (name: string) => headers.get(name)?.trim() || null;
  switch (surface) {
    case "sendgrid": return { ref: /^\/v3\/mail\/send\/?$/.test(path) ? null : value("on-behalf-of"), readAllWithout: false };
    case "mailgun": return { ref: value("x-mailgun-on-behalf-of"), readAllWithout: false };
    case "sparkpost": return { ref: value("x-msys-subaccount"), readAllWithout: method === "GET" || method === "HEAD" };
    // postern's own header (docs/tenants.md): a tenant id or name, on every native route.
    case "native": return { ref: value("x-postern-tenant"), readAllWithout: false };
    default: return { ref: null, readAllWithout: false };
  }
}

/** A tenant named by id or name (null: none named), and whether no header means every tenant for reads. */
export interface TenantAsk { ref: string | null; readAllWithout: boolean }

export type Authenticate = (key: string | null | undefined, ask?: TenantAsk) => Promise<Principal | null>;
