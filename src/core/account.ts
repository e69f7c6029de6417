// The single account of an installation: created on first start with its webhook signing key,
// the server secret (VERP and tracking HMACs) and a primary key printed once.
import type { ControlStore } from "./store-port.ts";
import type { AccessService } from "./access.ts";
import { newSecret } from "./ids.ts";

export const ACCOUNT_ID = 1;

/** Creates the account if missing; returns the new primary key the first time, else null. */
export async function ensureAccount(control: ControlStore, access: AccessService, now: number): Promise<string | null> {
  if (await control.getAccount()) return null;
  await control.createAccount({ id: ACCOUNT_ID, webhookSigningKey: newSecret(24), secret: newSecret(32), createdAt: now });
  const key = await access.createKey({ kind: "account", label: "primary" });
  return key.key;
}

/** The account acting as postern itself (alert mail, invitations): all rights, no key behind it. */
export const systemPrincipal = (keyId: string) => ({ accountId: ACCOUNT_ID, keyId, kind: "account" as const, domain: null, grants: [] });
