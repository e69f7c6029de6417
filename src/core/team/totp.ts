// TOTP (RFC 6238 over RFC 4226 HOTP): HMAC-SHA-1, 6 digits, 30-second steps, the secret in base32
// (RFC 4648) as authenticator apps expect it. A code of the step before or after is accepted too,
// for clocks a little apart (RFC 6238 §5.2).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { encodeBase32 } from "../ids.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const STEP_SECONDS = 30;
export const DIGITS = 6;

export const base32Encode = (bytes: Uint8Array): string => encodeBase32(bytes, ALPHABET);

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) throw new Error("not base32");
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) { out.push((value >>> (bits - 8)) & 255); bits -= 8; }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length), base32. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** The HOTP value of `counter` (RFC 4226 §5.3, dynamic truncation). */
export function hotp(secret: string, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** The code at time `nowMs`. */
export const totp = (secret: string, nowMs: number) => hotp(secret, Math.floor(nowMs / 1000 / STEP_SECONDS));

/**
 * The step whose code `code` is (the current one or one either side), or null. A step not after
 * `usedStep` is refused: one code signs in once (RFC 6238 §5.2).
 */
export function matchTotp(secret: string, code: string, nowMs: number, usedStep = 0): number | null {
  const given = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(given)) return null;
  const step = Math.floor(nowMs / 1000 / STEP_SECONDS);
  let found: number | null = null;
  for (const s of [step - 1, step, step + 1]) {
    if (timingSafeEqual(Buffer.from(hotp(secret, s)), Buffer.from(given)) && s > usedStep) found = s;
  }
  return found;
}

export const verifyTotp = (secret: string, code: string, nowMs: number) => matchTotp(secret, code, nowMs) !== null;

/** The otpauth:// URI authenticator apps read (Google Authenticator's Key Uri Format). */
export function otpauthUri(secret: string, account: string, issuer = "postern"): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;
}
