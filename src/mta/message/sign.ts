// DKIM signing of our own (RFC 6376, RFC 8463): relaxed/relaxed, RSA-SHA256 and Ed25519-SHA256,
// d= the From domain (aligned for DMARC), over-signed headers (dkim-canon.ts). The body is
// canonicalized and hashed once for all of a message's signatures; keys are parsed once. RSA
// goes through the system's OpenSSL when present (openssl-rsa.ts), else node:crypto.
import { createPrivateKey, sign as nodeSign, type KeyObject } from "node:crypto";
import type { DkimKey } from "../../core/model.ts";
import { fieldsToSign, relaxedBody, relaxedHeader, splitMessage } from "./dkim-canon.ts";
import { openSslRsaSigner } from "./openssl-rsa.ts";

const KEY_CACHE_SIZE = 1_000;
const B64_LINE = 72;

export interface SignerDeps {
  /** The keys of a signing domain (cached by the caller for the burst). */
  keysFor(domain: string): Promise<DkimKey[]>;
  /** The signing time (t=), in ms. */
  now: () => number;
  /** "node" forces node:crypto for RSA (tests compare both). */
  rsa?: "auto" | "node";
}

type Sign = (data: Buffer) => Uint8Array;

/** A parsed key: `sign` takes the header data to be signed (RFC 6376 §3.7). */
export function prepareKey(key: Pick<DkimKey, "algorithm" | "privateKeyPem">, rsa: "auto" | "node" = "auto"): Sign {
  const keyObject: KeyObject = createPrivateKey(key.privateKeyPem);
  if (key.algorithm === "ed25519-sha256") {
    // RFC 8463 §3: Ed25519 signs the SHA-256 hash of the data, not the data itself.
    return (data) => nodeSign(null, new Bun.CryptoHasher("sha256").update(data).digest(), keyObject);
  }
  const ffi = rsa === "auto" ? openSslRsaSigner(key.privateKeyPem) : null;
  return ffi ? (data) => ffi.sign(data) : (data) => nodeSign("sha256", data, keyObject);
}

const fold = (b64: string) => b64.replace(new RegExp(`(.{${B64_LINE}})(?=.)`, "g"), "$1\r\n\t");

export function createSigner(deps: SignerDeps) {
  const prepared = new Map<string, Sign>();
  const keyFor = (k: DkimKey): Sign => {
    const id = `${k.algorithm}\0${k.privateKeyPem}`;
    let s = prepared.get(id);
    if (!s) {
      if (prepared.size >= KEY_CACHE_SIZE) prepared.delete(prepared.keys().next().value!);
      prepared.set(id, (s = prepareKey(k, deps.rsa)));
    }
    return s;
  };
  return {
    /** Returns the message with DKIM-Signature headers prepended; unsigned when the domain has no keys. */
    async sign(raw: Buffer, signingDomain: string): Promise<Buffer> {
      const keys = await deps.keysFor(signingDomain);
      if (!keys.length) return raw;
      const { fields, body } = splitMessage(raw.toString("latin1"));
      const bh = new Bun.CryptoHasher("sha256").update(Buffer.from(relaxedBody(body), "latin1")).digest("base64");
      const { names, canonical } = fieldsToSign(fields);
      const t = Math.floor(deps.now() / 1000);
      const headers = keys.map((k) => {
        const head = `DKIM-Signature: v=1; a=${k.algorithm}; c=relaxed/relaxed; d=${signingDomain};\r\n\ts=${k.selector}; t=${t};\r\n`
          + `\th=${names.join(":")};\r\n\tbh=${bh};\r\n\tb=`;
        // The signature covers the signed fields, then this header with an empty b= and no CRLF.
        const data = Buffer.from(canonical + relaxedHeader(head).slice(0, -2), "latin1");
        return `${head}${fold(Buffer.from(keyFor(k)(data)).toString("base64"))}\r\n`;
      });
      return Buffer.concat([Buffer.from(headers.join(""), "latin1"), raw]);
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;
