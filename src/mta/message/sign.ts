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

const FOLD = new RegExp(`(.{${B64_LINE}})(?=.)`, "g");
const fold = (b64: string) => b64.replace(FOLD, "$1\r\n\t");

export function createSigner(deps: SignerDeps) {
  const prepared = new Map<string, Sign>();
  // By the key object first: keysFor hands out the same objects while its cache lasts, and a
  // look-up by PEM text hashes about 1.7 KB of a fresh string per signature.
  const byObject = new WeakMap<DkimKey, Sign>();
  const keyFor = (k: DkimKey): Sign => {
    const known = byObject.get(k);
    if (known) return known;
    const id = `${k.algorithm}\0${k.privateKeyPem}`;
    let s = prepared.get(id);
    // Least recently used goes first: keysFor hands out new objects every minute or so, and a key
    // in use must not be parsed again because others were parsed after it.
    if (s) prepared.delete(id);
    else if (prepared.size >= KEY_CACHE_SIZE) prepared.delete(prepared.keys().next().value!);
    prepared.set(id, (s ??= prepareKey(k, deps.rsa)));
    byObject.set(k, s);
    return s;
  };
  return {
    /** Returns the message with DKIM-Signature headers prepended; unsigned when the domain has no keys. */
    async sign(raw: Buffer, signingDomain: string): Promise<Buffer> {
      const keys = await deps.keysFor(signingDomain);
      if (!keys.length) return raw;
      const { fields, body } = splitMessage(raw.toString("latin1"));
      const bh = new Bun.CryptoHasher("sha256").update(relaxedBody(body), "latin1").digest("base64");
      const { names, canonical } = fieldsToSign(fields);
      const t = Math.floor(deps.now() / 1000);
      const headers = keys.map((k) => {
        // The header as sent (folded) and in relaxed form (RFC 6376 §3.4.2: unfolded, each fold's
        // tab one space), from the same parts: the signature covers the signed fields, then this
        // header with an empty b= and no CRLF.
        const parts = [`v=1; a=${k.algorithm}; c=relaxed/relaxed; d=${signingDomain};`, `s=${k.selector}; t=${t};`, `h=${names.join(":")};`, `bh=${bh};`, "b="];
        const data = Buffer.from(`${canonical}dkim-signature:${parts.join(" ")}`, "latin1");
        const sig = keyFor(k)(data);
        return `DKIM-Signature: ${parts.join("\r\n\t")}${fold(Buffer.from(sig.buffer, sig.byteOffset, sig.byteLength).toString("base64"))}\r\n`;
      });
      return Buffer.concat([Buffer.from(headers.join(""), "latin1"), raw]);
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;
