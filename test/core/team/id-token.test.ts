// id_token checks with keys made here by node:crypto (real RSA, EC and Ed25519 signatures): a good
// token passes; a bad signature, an unknown key, alg none or HS256, and each wrong claim are refused.
import { expect, test } from "bun:test";
import { generateKeyPairSync, sign, createHmac, type KeyObject } from "node:crypto";
import { checkIdToken, verifyJws } from "../../../src/core/team/id-token.ts";

const NOW = 1_800_000_000_000;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

function jwt(alg: string, key: KeyObject | null, claims: Record<string, unknown>, kid = "k1"): string {
  const head = `${b64({ alg, kid, typ: "JWT" })}.${b64(claims)}`;
  if (!key) return `${head}.`;
  const hash = alg === "EdDSA" ? null : `sha${alg.slice(2)}`;
  const opts = alg.startsWith("ES") ? { key, dsaEncoding: "ieee-p1363" as const } : key;
  return `${head}.${sign(hash, Buffer.from(head), opts).toString("base64url")}`;
}

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const ed = generateKeyPairSync("ed25519");
const jwk = (k: KeyObject, kid: string) => ({ ...k.export({ format: "jwk" }), kid, use: "sig" }) as { kty?: string; kid?: string };
const KEYS = [jwk(rsa.publicKey, "k1"), jwk(ec.publicKey, "k1"), jwk(ed.publicKey, "k1")];
const claims = { iss: "https://idp.test", sub: "s1", aud: "postern", exp: NOW / 1000 + 300, iat: NOW / 1000, nonce: "n1", email: "a@b.test", email_verified: true };
const expectOk = { issuer: "https://idp.test", clientId: "postern", nonce: "n1", nowMs: NOW };

test("RS256, ES256 and EdDSA tokens verify and their claims check", () => {
  for (const [alg, key] of [["RS256", rsa.privateKey], ["ES256", ec.privateKey], ["EdDSA", ed.privateKey]] as const) {
    expect(checkIdToken(verifyJws(jwt(alg, key, claims), KEYS as never), expectOk).email).toBe("a@b.test");
  }
});

test("a forged signature, another key id, alg none and HS256 are refused", () => {
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  expect(() => verifyJws(jwt("RS256", other.privateKey, claims), KEYS as never)).toThrow(/does not verify/);
  expect(() => verifyJws(jwt("RS256", rsa.privateKey, claims, "k2"), KEYS as never)).toThrow(/no key/);
  expect(() => verifyJws(jwt("none", null, claims), KEYS as never)).toThrow(/algorithm none/);
  const head = `${b64({ alg: "HS256", kid: "k1" })}.${b64(claims)}`;
  expect(() => verifyJws(`${head}.${createHmac("sha256", "secret").update(head).digest("base64url")}`, KEYS as never)).toThrow(/HS256 is not accepted/);
});

test("issuer, audience, authorized party, expiry, issue time and nonce are each checked", () => {
  const bad = (patch: Record<string, unknown>, why: RegExp) => expect(() => checkIdToken({ ...claims, ...patch }, expectOk)).toThrow(why);
  bad({ iss: "https://evil.test" }, /issuer/);
  bad({ aud: "someone-else" }, /audience/);
  bad({ aud: ["postern", "x"] }, /authorized party/);
  expect(checkIdToken({ ...claims, aud: ["postern", "x"], azp: "postern" }, expectOk).sub).toBe("s1");
  bad({ exp: NOW / 1000 - 120 }, /expiry/);
  bad({ iat: NOW / 1000 + 600 }, /issue time/);
  bad({ nonce: "other" }, /nonce/);
});
