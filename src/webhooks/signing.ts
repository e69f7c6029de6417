// Mailgun's webhook signature, used by the Mailgun, native and bot-verdict formats and checked by
// the native POST /webhook: hex(HMAC-SHA256(signing key, timestamp + token)).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_BYTES = 25; // 50 hex characters, as Mailgun's tokens

export interface HmacSignature { timestamp: string; token: string; signature: string }

export function hmacSign(signingKey: string, timestamp: string, token = randomBytes(TOKEN_BYTES).toString("hex")): HmacSignature {
  return { timestamp, token, signature: createHmac("sha256", signingKey).update(timestamp + token).digest("hex") };
}

/** Signs now: timestamp as a string of seconds, a random token. */
export const hmacSignNow = (signingKey: string, nowMs: number) => hmacSign(signingKey, String(Math.floor(nowMs / 1000)));

export function hmacVerify(signingKey: string, sig: { timestamp: string | number; token: string; signature: string }): boolean {
  const expected = Buffer.from(hmacSign(signingKey, String(sig.timestamp), sig.token).signature);
  const given = Buffer.from(String(sig.signature));
  return given.length === expected.length && timingSafeEqual(expected, given);
}
