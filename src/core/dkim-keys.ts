// DKIM key generation: RSA-2048 (RFC 6376) and Ed25519 (RFC 8463) pairs, with the `p=` value each
// DNS record publishes.
import { createPrivateKey, createPublicKey, generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { DkimKey } from "./model.ts";

const generate = promisify(generateKeyPair);
const RSA_BITS = 2048;

type Algorithm = DkimKey["algorithm"];

/** One new key pair of `algorithm` under `selector`, with the `p=` value its record publishes. */
export async function generateDkimKey(algorithm: Algorithm, selector: string): Promise<Omit<DkimKey, "domainId">> {
  if (algorithm === "rsa-sha256") {
    const rsa = await generate("rsa", { modulusLength: RSA_BITS });
    const spki = rsa.publicKey.export({ type: "spki", format: "der" });
    return { selector, algorithm, privateKeyPem: rsa.privateKey.export({ type: "pkcs8", format: "pem" }) as string, publicKey: spki.toString("base64") };
  }
  const ed = await generate("ed25519");
  // RFC 8463 §4.2: the Ed25519 p= is the bare 32-byte key, not the SPKI structure.
  const raw = ed.publicKey.export({ type: "spki", format: "der" }).subarray(-32);
  return { selector, algorithm, privateKeyPem: ed.privateKey.export({ type: "pkcs8", format: "pem" }) as string, publicKey: Buffer.from(raw).toString("base64") };
}

/** A key brought in as PKCS#1/PKCS#8 PEM (RSA or Ed25519); null when it is neither. */
export function dkimKeyFromPem(pem: string, selector: string): Omit<DkimKey, "domainId"> | null {
  let key;
  try { key = createPrivateKey(pem); } catch { return null; }
  const type = key.asymmetricKeyType;
  if (type !== "rsa" && type !== "ed25519") return null;
  const spki = createPublicKey(key).export({ type: "spki", format: "der" });
  const privateKeyPem = key.export({ type: "pkcs8", format: "pem" }) as string;
  // RFC 8463 §4.2 again: Ed25519's p= is the bare key.
  return type === "rsa" ? { selector, algorithm: "rsa-sha256", privateKeyPem, publicKey: spki.toString("base64") }
    : { selector, algorithm: "ed25519-sha256", privateKeyPem, publicKey: Buffer.from(spki.subarray(-32)).toString("base64") };
}

/** Ed25519 keys sit under the RSA selector + "e", so one name says which pair they belong to. */
export const selectorFor = (algorithm: Algorithm, base: string) => (algorithm === "rsa-sha256" ? base : `${base}e`);

/** Generates the domain's signing keys: RSA under `selector`, Ed25519 under `selector` + "e". */
export async function generateDkimKeys(selector: string): Promise<Omit<DkimKey, "domainId">[]> {
  return Promise.all((["rsa-sha256", "ed25519-sha256"] as const).map((a) => generateDkimKey(a, selectorFor(a, selector))));
}

/** The TXT value a DKIM key publishes. */
export function dkimRecordValue(key: Pick<DkimKey, "algorithm" | "publicKey">): string {
  return `v=DKIM1; k=${key.algorithm === "rsa-sha256" ? "rsa" : "ed25519"}; p=${key.publicKey}`;
}

/** A key's lifecycle state; keys built outside the store (tests) carry none and are active. */
export const dkimState = (k: Pick<DkimKey, "state">) => k.state ?? "active";

/**
 * The one answer to "which key signs new mail": per algorithm, the domain's active key (the most
 * recently activated, should two ever be active at once). Pending, retiring and retired keys never sign.
 */
export function signingKeys(keys: DkimKey[]): DkimKey[] {
  const best = new Map<string, DkimKey>();
  for (const k of keys) {
    if (dkimState(k) !== "active") continue;
    const had = best.get(k.algorithm);
    if (!had || (k.activatedAt ?? 0) >= (had.activatedAt ?? 0)) best.set(k.algorithm, k);
  }
  return keys.filter((k) => best.get(k.algorithm) === k);
}

/** The keys DNS should carry: pending (to be seen), active, retiring (mail in flight still verifies). */
export const publishedDkimKeys = (keys: DkimKey[]) => keys.filter((k) => dkimState(k) !== "retired");
