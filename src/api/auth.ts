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

export type Authenticate = (key: string | null | undefined) => Promise<Principal | null>;
