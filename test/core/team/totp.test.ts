// TOTP against RFC 6238's own test vectors (Appendix B, SHA-1, the ASCII seed "12345678901234567890",
// 8-digit values whose last six digits are the 6-digit codes), base32 round trips, the one-step
// window either side, and the otpauth URI.
import { expect, test } from "bun:test";
import { base32Decode, base32Encode, hotp, otpauthUri, totp, verifyTotp } from "../../../src/core/team/totp.ts";

const SEED = base32Encode(Buffer.from("12345678901234567890"));

test("RFC 6238 Appendix B vectors (SHA-1), as 6 digits", () => {
  const vectors: [number, string][] = [[59, "94287082"], [1111111109, "07081804"], [1111111111, "14050471"], [1234567890, "89005924"],
    [2000000000, "69279037"], [20000000000, "65353130"]];
  for (const [t, code] of vectors) expect(totp(SEED, t * 1000)).toBe(code.slice(-6));
});

test("RFC 4226 Appendix D HOTP values", () => {
  expect([0, 1, 2, 9].map((c) => hotp(SEED, c))).toEqual(["755224", "287082", "359152", "520489"]);
});

test("base32 round-trips; codes of the neighbouring steps pass, farther ones and junk do not", () => {
  expect(base32Decode(SEED).toString()).toBe("12345678901234567890");
  expect(SEED).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  const now = 1_800_000_000_000;
  expect(verifyTotp(SEED, totp(SEED, now), now)).toBe(true);
  expect(verifyTotp(SEED, totp(SEED, now - 30_000), now)).toBe(true);
  expect(verifyTotp(SEED, totp(SEED, now + 30_000), now)).toBe(true);
  expect(verifyTotp(SEED, totp(SEED, now - 90_000), now)).toBe(false);
  expect(verifyTotp(SEED, "12345", now)).toBe(false);
  expect(verifyTotp(SEED, "abcdef", now)).toBe(false);
});

test("the otpauth URI names the issuer, the account, SHA1, 6 digits and 30 s", () => {
  expect(otpauthUri("ABC", "amy@example.com")).toBe("otpauth://totp/postern%3Aamy%40example.com?secret=ABC&issuer=postern&algorithm=SHA1&digits=6&period=30");
});

test("matchTotp names the step and refuses a step already used (one code, one sign-in)", async () => {
  const { matchTotp } = await import("../../../src/core/team/totp.ts");
  const now = 1_800_000_000_000;
  const step = Math.floor(now / 30_000);
  expect(matchTotp(SEED, totp(SEED, now), now)).toBe(step);
  expect(matchTotp(SEED, totp(SEED, now), now, step)).toBeNull();
  expect(matchTotp(SEED, totp(SEED, now + 30_000), now, step)).toBe(step + 1);
});
