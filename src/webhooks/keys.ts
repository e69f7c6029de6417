// The keys webhooks are signed with: the installation's ECDSA P-256 pair for SendGrid-format
// targets, and the HMAC key of Mailgun-style signatures.
import { generateKeyPairSync } from "node:crypto";
import type { Store } from "../store/store.ts";

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
}

export function createSigningKeys(deps: { store: Store; installationKey: string }): SigningKeys {
  return { forDomain: async () => deps.installationKey };
}
