// Application-generated ids: time-ordered, lower-case base32 (survive case-folding in VERP
// addresses and sort by creation for index locality), and random API key secrets.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/** Base32 of `bytes` in `alphabet` (Crockford's lower case for ids; TOTP secrets pass RFC 4648's). */
export function encodeBase32(bytes: Uint8Array, alphabet: string = ALPHABET): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) { out += alphabet[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

// Several ids per message (send, message, recipients, events, outbox items): a profile of the
// delivery bench had newId at 2 % of the server's CPU, most of it one randomBytes() Buffer per id
// and the time prefix built again for ids of the same millisecond. Ids are not secrets (newSecret
// draws its own bytes), so they take their random bits from a pool filled 4 KB at a time.
const pool = new Uint8Array(4096);
let poolAt = pool.length;
let prefixMs = -1;
let prefix = "";

/** A 20-character id: 10 characters of milliseconds, then 10 random ones (50 bits). */
export function newId(nowMs: number): string {
  if (poolAt + 7 > pool.length) { crypto.getRandomValues(pool); poolAt = 0; }
  let out = idPrefixAt(nowMs);
  let bits = 0;
  let value = 0;
  for (let i = poolAt; out.length < 20; i++) {
    value = ((value << 8) | pool[i]!) & 0xffff;
    bits += 8;
    while (bits >= 5 && out.length < 20) { out += ALPHABET[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  poolAt += 7;
  return out;
}

/** The 10 time characters every id made at `ms` starts with: ids made earlier sort below it. */
export function idPrefixAt(ms: number): string {
  if (ms === prefixMs) return prefix;
  let t = "";
  let n = Math.floor(Math.max(0, ms));
  for (let i = 0; i < 10; i++) { t = ALPHABET[n % 32] + t; n = Math.floor(n / 32); }
  prefixMs = ms;
  prefix = t;
  return t;
}

/** A random secret of `bytes` bytes, base32 (for keys, passwords, signing secrets). */
export function newSecret(bytes = 24): string {
  return encodeBase32(randomBytes(bytes));
}
