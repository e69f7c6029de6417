// DKIM key generation: RSA-2048 (RFC 6376) and Ed25519 (RFC 8463) pairs, with the `p=` value each
// DNS record publishes.
import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { DkimKey } from "./model.ts";

const generate = promisify(generateKeyPair);
const RSA_BITS = 2048;

/** Generates the domain's signing keys: RSA under `selector`, Ed25519 under `selector` + "e". */
export async function generateDkimKeys(selector: string): Promise<Omit<DkimKey, "domainId">[]> {
  const [rsa, ed] = await Promise.all([
    generate("rsa", { modulusLength: RSA_BITS }),
    generate("ed25519"),
  ]);
  const rsaSpki = rsa.publicKey.export({ type: "spki", format: "der" });
  // RFC 8463 §4.2: the Ed25519 p= is the bare 32-byte key, not the SPKI structure.
  const edRaw = ed.publicKey.export({ type: "spki", format: "der" }).subarray(-32);
  return [
    { selector, algorithm: "rsa-sha256", privateKeyPem: rsa.privateKey.export({ type: "pkcs8", format: "pem" }) as string, publicKey: rsaSpki.toString("base64") },
    { selector: `${selector}e`, algorithm: "ed25519-sha256", privateKeyPem: ed.privateKey.export({ type: "pkcs8", format: "pem" }) as string, publicKey: Buffer.from(edRaw).toString("base64") },
  ];
}

/** The TXT value a DKIM key publishes. */
export function dkimRecordValue(key: Pick<DkimKey, "algorithm" | "publicKey">): string {
  return `v=DKIM1; k=${key.algorithm === "rsa-sha256" ? "rsa" : "ed25519"}; p=${key.publicKey}`;
}
