// The keys webhooks are signed with: the installation's ECDSA P-256 pair for SendGrid-format
// targets, and the HMAC keys of Mailgun-style signatures: each domain's own for its webhooks,
// callback URLs and bot pushes, each tenant's for its account-level targets (the primary's is the
// installation's key).
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import type { Store } from "../core/store-port.ts";
import { PRIMARY_TENANT } from "../core/tenants.ts";

const KEY_BYTES = 24;

/** The account's ECDSA P-256 pair for SendGrid-format webhooks, created on first use. */
export async function ensureEventWebhookKeys(store: Store): Promise<{ privateKeyPem: string; publicKey: string }> {
  const existing = await store.control.getEventWebhookKeys();
  if (existing) return existing;
  const pair = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const keys = {
    privateKeyPem: pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    publicKey: pair.publicKey.export({ type: "spki", format: "der" }).toString("base64"),
  };
  await store.control.setEventWebhookKeys(keys);
  return keys;
}

export interface SigningKeys {
  /** The HMAC key for webhooks of `domain`; null (account-level targets) gets the installation's. */
  forDomain(domain: string | null): Promise<string>;
  /** The HMAC key of a tenant's account-level targets: the installation's for the primary (0). */
  forTenant(tenant: number): Promise<string>;
  /** The account-level key of `domain`'s tenant (posts of its account-wide rules: Mailgun routes); none: the installation's. */
  forAccountOf(domain: string): Promise<string>;
}

/**
 * A tenant's key, derived from the installation's (HMAC-SHA256 of the tenant id): the same on every
 * node without a stored column, and no tenant learns the installation's key or another tenant's
 * from its own (contract §14: a tenant's webhooks are its own).
 */
export function tenantSigningKey(installationKey: string, tenant: number): string {
  if (tenant === PRIMARY_TENANT) return installationKey;
  return createHmac("sha256", installationKey).update(`postern tenant signing key ${tenant}`).digest("hex").slice(0, KEY_BYTES * 2);
}


/** Domain keys are made on first use and kept in the domain's row; read once per process. */
export function createSigningKeys(deps: { store: Store; installationKey: string }): SigningKeys {
  const cache = new Map<string, string>();
  // A domain's tenant, kept like its key: a domain does not move between tenants.
  const tenants = new Map<string, number>();
  return {
    forTenant: async (tenant) => tenantSigningKey(deps.installationKey, tenant),
    async forAccountOf(domain) {
      let tenant = domain ? tenants.get(domain) : PRIMARY_TENANT;
      if (tenant === undefined) {
        const d = await deps.store.control.getDomain(domain);
        tenant = d?.tenantId ?? PRIMARY_TENANT;
        if (d) tenants.set(domain, tenant);
      }
      return tenantSigningKey(deps.installationKey, tenant);
    },
    async forDomain(domain) {
      if (!domain) return deps.installationKey;
      const hit = cache.get(domain);
      if (hit) return hit;
      const d = await deps.store.control.getDomain(domain);
      // A domain deleted since its events were recorded: nobody verifies with its key any more.
      const key = d ? await deps.store.control.domainWebhookKey(d.id, randomBytes(KEY_BYTES).toString("hex")) : null;
      if (!key) return deps.installationKey;
      cache.set(domain, key);
      return key;
    },
  };
}
