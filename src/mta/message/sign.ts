// DKIM signing with mailauth: every message is signed with the domain's RSA-2048 and Ed25519 keys
// (RFC 6376, RFC 8463), relaxed/relaxed, d= the From domain (aligned for DMARC).
import { dkimSign } from "mailauth/lib/dkim/sign.js";
import type { DkimKey } from "../../core/model.ts";

/** Headers signed (and over-signed where listed twice, so they cannot be added in transit). */
const SIGNED_HEADERS = ["from", "from", "to", "cc", "subject", "subject", "date", "message-id", "reply-to", "mime-version",
  "content-type", "content-transfer-encoding", "list-unsubscribe", "list-unsubscribe-post", "in-reply-to", "references"];

export interface SignerDeps {
  /** The keys of a signing domain (cached by the caller for the burst). */
  keysFor(domain: string): Promise<DkimKey[]>;
}

export function createSigner(deps: SignerDeps) {
  return {
    /** Returns the message with DKIM-Signature headers prepended; unsigned when the domain has no keys. */
    async sign(raw: Buffer, signingDomain: string): Promise<Buffer> {
      const keys = await deps.keysFor(signingDomain);
      if (!keys.length) return raw;
      const result = await dkimSign(raw, {
        canonicalization: "relaxed/relaxed",
        headerList: SIGNED_HEADERS,
        signatureData: keys.map((k) => ({
          signingDomain, selector: k.selector, privateKey: k.privateKeyPem,
          algorithm: k.algorithm === "rsa-sha256" ? "rsa-sha256" : "ed25519-sha256",
        })),
      } as Parameters<typeof dkimSign>[1]);
      if (result.errors?.length) throw new Error(`DKIM signing failed: ${String((result.errors[0] as { err?: Error })?.err ?? result.errors[0])}`);
      return Buffer.concat([Buffer.from(result.signatures), raw]);
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;
