// RSA-SHA256 signatures through the system's OpenSSL 3 (libcrypto.so.3) via bun:ffi, when it is
// there: Bun's node:crypto (BoringSSL) takes about twice as long for an RSA-2048 signature, and
// RSA signing is the largest CPU cost of sending. The key is parsed once; signatures are
// PKCS #1 v1.5 and so byte-identical to node:crypto's. Returns null when no usable libcrypto exists.
import { dlopen, FFIType, type Pointer } from "bun:ffi";

const LIBRARIES = ["libcrypto.so.3", "/usr/lib/x86_64-linux-gnu/libcrypto.so.3", "/usr/lib/aarch64-linux-gnu/libcrypto.so.3",
  "/usr/lib64/libcrypto.so.3", "/lib/libcrypto.so.3", "libcrypto.3.dylib"];

const { ptr: P, i32, void: V, u64 } = FFIType;
const SYMBOLS = {
  BIO_new_mem_buf: { args: [P, i32], returns: P },
  BIO_free: { args: [P], returns: i32 },
  PEM_read_bio_PrivateKey: { args: [P, P, P, P], returns: P },
  EVP_PKEY_free: { args: [P], returns: V },
  EVP_PKEY_get_size: { args: [P], returns: i32 },
  EVP_MD_CTX_new: { args: [], returns: P },
  EVP_MD_CTX_free: { args: [P], returns: V },
  EVP_MD_CTX_reset: { args: [P], returns: i32 },
  EVP_sha256: { args: [], returns: P },
  EVP_DigestSignInit: { args: [P, P, P, P, P], returns: i32 },
  EVP_DigestSign: { args: [P, P, P, P, u64], returns: i32 },
} as const;

type Lib = ReturnType<typeof dlopen<typeof SYMBOLS>>["symbols"];

export interface RsaSigner {
  /** The RSA-SHA256 (PKCS #1 v1.5) signature of `data`. */
  sign(data: Uint8Array): Uint8Array;
  free(): void;
}

let lib: Lib | null | undefined;

interface Native { pkey: Pointer; ctx: Pointer }
let held = 0;
const release = (n: Native) => { lib!.EVP_MD_CTX_free(n.ctx); lib!.EVP_PKEY_free(n.pkey); held--; };
/**
 * A signer nobody holds any more gives its key back to OpenSSL: the signer's key cache (sign.ts)
 * lets keys go and parses them again when more keys are in use than it keeps (every minute per
 * domain, as the key look-up is refreshed), and each parse is native memory the JS heap never sees.
 */
const collected = new FinalizationRegistry<Native>(release);
/** Parsed keys not yet given back to OpenSSL (tests watch it). */
export const openSslKeysHeld = () => held;

/** libcrypto's symbols, opened once; null when the library cannot be loaded (then node:crypto signs). */
export function openSsl(): Lib | null {
  if (lib !== undefined) return lib;
  lib = null;
  for (const path of LIBRARIES) {
    try { lib = dlopen(path, SYMBOLS).symbols; break; } catch { /* next candidate */ }
  }
  return lib;
}

/** Parses a PEM private key once; null when OpenSSL is unavailable or refuses the key. */
export function openSslRsaSigner(pem: string): RsaSigner | null {
  const L = openSsl();
  if (!L) return null;
  const pemBytes = Buffer.from(pem + "\0", "latin1");
  const bio = L.BIO_new_mem_buf(pemBytes, pemBytes.length - 1);
  if (!bio) return null;
  const pkey = L.PEM_read_bio_PrivateKey(bio, null, null, null);
  L.BIO_free(bio);
  if (!pkey) return null;
  const size = L.EVP_PKEY_get_size(pkey);
  const ctx = L.EVP_MD_CTX_new();
  if (!ctx || size <= 0) { if (ctx) L.EVP_MD_CTX_free(ctx); L.EVP_PKEY_free(pkey); return null; }
  const sha256 = L.EVP_sha256();
  const sigLen = new BigUint64Array(1);
  const native: Native = { pkey: pkey as Pointer, ctx: ctx as Pointer };
  let freed = false;
  const signer: RsaSigner = {
    sign(data) {
      // Through `signer`: a caller that keeps only this function keeps the key from being collected.
      if (freed || !signer) throw new Error("RSA key freed");
      const sig = new Uint8Array(size);
      sigLen[0] = BigInt(size);
      L.EVP_MD_CTX_reset(ctx as Pointer);
      if (L.EVP_DigestSignInit(ctx as Pointer, null, sha256, null, pkey as Pointer) !== 1) throw new Error("OpenSSL EVP_DigestSignInit failed");
      if (L.EVP_DigestSign(ctx as Pointer, sig, sigLen, data.length ? data : new Uint8Array(1), data.length) !== 1) throw new Error("OpenSSL EVP_DigestSign failed");
      return sig.subarray(0, Number(sigLen[0]));
    },
    free() {
      if (freed) return;
      freed = true;
      collected.unregister(signer);
      release(native);
    },
  };
  held++;
  collected.register(signer, native, signer);
  return signer;
}
