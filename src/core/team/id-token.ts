// Verifying an OpenID Connect id_token (OpenID Connect Core 1.0 §3.1.3.7) with node:crypto: the JWS
// signature against the provider's JWKS (RSA, RSA-PSS, ECDSA, EdDSA; never "none" or a MAC), then
// iss, aud/azp, exp and nonce. The keys are the provider's published ones, fetched by the caller.
import { createPublicKey, constants, verify, type KeyObject } from "node:crypto";

/** A published key (RFC 7517) as node:crypto reads it. */
type JsonWebKey = { kty?: string; [k: string]: unknown };
import { unauthenticated } from "../errors.ts";

export interface IdClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  nonce?: string;
  azp?: string;
  email?: string;
  email_verified?: boolean;
}

const HASH: Record<string, string> = { "256": "sha256", "384": "sha384", "512": "sha512" };

const b64json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;

/** Checks the signature of `jws` with a key of `keys` (by kid, else by type); returns the payload. */
export function verifyJws(jws: string, keys: (JsonWebKey & { kid?: string; use?: string })[]): Record<string, unknown> {
  const parts = jws.split(".");
  if (parts.length !== 3) throw unauthenticated("the provider's id_token is not a signed JWT");
  const header = b64json(parts[0]!);
  const alg = String(header.alg ?? "");
  const m = /^(RS|PS|ES)(256|384|512)$/.exec(alg);
  if (!m && alg !== "EdDSA") throw unauthenticated(`id_token algorithm ${alg || "none"} is not accepted`);
  const kty = alg === "EdDSA" ? "OKP" : m![1] === "ES" ? "EC" : "RSA";
  const candidates = keys.filter((k) => k.kty === kty && (k.use === undefined || k.use === "sig") && (header.kid === undefined || k.kid === header.kid));
  if (!candidates.length) throw unauthenticated("no key of the provider matches the id_token");
  const data = Buffer.from(`${parts[0]}.${parts[1]}`);
  const sig = Buffer.from(parts[2]!, "base64url");
  const ok = candidates.some((jwk) => {
    let key: KeyObject;
    try { key = createPublicKey({ key: jwk, format: "jwk" }); } catch { return false; }
    if (alg === "EdDSA") return verify(null, data, key, sig);
    const hash = HASH[m![2]!]!;
    if (m![1] === "PS") return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(m![2]) / 8 }, sig);
    if (m![1] === "ES") return verify(hash, data, { key, dsaEncoding: "ieee-p1363" }, sig);
    return verify(hash, data, key, sig);
  });
  if (!ok) throw unauthenticated("the id_token's signature does not verify");
  return b64json(parts[1]!);
}

/** The claims of a verified id_token, after the checks of OIDC Core §3.1.3.7 (60 s of clock skew allowed). */
export function checkIdToken(payload: Record<string, unknown>, expect: { issuer: string; clientId: string; nonce: string; nowMs: number }): IdClaims {
  const c = payload as unknown as IdClaims;
  const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
  const now = expect.nowMs / 1000;
  const problem =
    c.iss !== expect.issuer ? "issuer" :
    !aud.includes(expect.clientId) ? "audience" :
    aud.length > 1 && c.azp !== expect.clientId ? "authorized party" :
    typeof c.exp !== "number" || c.exp < now - 60 ? "expiry" :
    typeof c.iat !== "number" || c.iat > now + 60 ? "issue time" :
    c.nonce !== expect.nonce ? "nonce" :
    typeof c.sub !== "string" || !c.sub ? "subject" : null;
  if (problem) throw unauthenticated(`the id_token's ${problem} is wrong`);
  return c;
}
