// Does the certificate chain a server presented match its TLSA records (RFC 6698 §2.1, RFC 7671,
// RFC 7672 §3)? DANE-EE(3): the leaf's certificate or key, nothing else: no name, no expiry
// (RFC 7672 §3.1.1). DANE-TA(2): a certificate of the chain (or the key it was issued with) is the
// trust anchor; the leaf must chain to it by signature, be in date, and carry the MX host's name
// or the TLSA base domain (RFC 7672 §3.2.2). Usages 0 and 1 (PKIX) and unknown selectors or
// matching types are unusable in SMTP and were dropped before this runs (dane.ts).
import { createHash, createPublicKey, X509Certificate } from "node:crypto";
import type { TLSSocket } from "node:tls";
import type { TlsaRecord } from "../../dns.ts";

export type DaneVerdict = { ok: true; usage: 2 | 3 } | { ok: false; reason: string };

/** Selector 0: the whole certificate (DER); 1: its SubjectPublicKeyInfo (DER). */
function selected(cert: X509Certificate, selector: number): Buffer {
  return selector === 0 ? cert.raw : cert.publicKey.export({ type: "spki", format: "der" }) as Buffer;
}

/** Matching type 0: the bytes themselves; 1: SHA-256; 2: SHA-512. */
function digest(bytes: Buffer, matchingType: number): Buffer {
  if (matchingType === 1) return createHash("sha256").update(bytes).digest();
  if (matchingType === 2) return createHash("sha512").update(bytes).digest();
  return bytes;
}

const matches = (cert: X509Certificate, r: TlsaRecord) => digest(selected(cert, r.selector), r.matchingType).equals(r.data);

/** True when chain[0] is issued, link by link, up to chain[upTo] (each signed by the next one's key). */
function chainsTo(chain: X509Certificate[], upTo: number): boolean {
  for (let i = 0; i < upTo; i++) if (!chain[i]!.checkIssued(chain[i + 1]!) || !chain[i]!.verify(chain[i + 1]!.publicKey)) return false;
  return true;
}

function nameOk(leaf: X509Certificate, names: string[]): boolean {
  return names.some((n) => leaf.checkHost(n, { wildcards: true, singleLabelSubdomains: false }) !== undefined);
}

function inDate(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
}

/** A DANE-TA(2) record with selector 1 may publish a key that is not in the chain: the top certificate must be signed by it. */
function signedByPublishedKey(top: X509Certificate, r: TlsaRecord): boolean {
  if (r.selector !== 1 || r.matchingType !== 0) return false;
  try {
    return top.verify(createPublicKey({ key: r.data, format: "der", type: "spki" }));
  } catch { return false; }
}

/**
 * `chain`: the certificates the server sent, leaf first (DER). `names`: the MX host name and the
 * TLSA base domain (the same unless a CNAME was followed), checked for DANE-TA only.
 */
export function verifyDane(chainDer: Buffer[], records: TlsaRecord[], names: string[], now: number): DaneVerdict {
  if (!chainDer.length) return { ok: false, reason: "the server presented no certificate" };
  let chain: X509Certificate[];
  try { chain = chainDer.map((d) => new X509Certificate(d)); } catch { return { ok: false, reason: "the server's certificate could not be read" }; }
  const leaf = chain[0]!;
  if (records.some((r) => r.usage === 3 && matches(leaf, r))) return { ok: true, usage: 3 };
  const ta = records.filter((r) => r.usage === 2);
  let why = "no TLSA record matches the server's certificate";
  for (const r of ta) {
    const at = chain.findIndex((c, i) => i > 0 && matches(c, r));
    const anchored = at > 0 ? chainsTo(chain, at) : chainsTo(chain, chain.length - 1) && signedByPublishedKey(chain.at(-1)!, r);
    if (!anchored) continue;
    if (!inDate(leaf, now)) { why = "the certificate issued by the DANE-TA anchor is expired or not yet valid"; continue; }
    if (!nameOk(leaf, names)) { why = `the certificate issued by the DANE-TA anchor names neither ${names.join(" nor ")}`; continue; }
    return { ok: true, usage: 2 };
  }
  return { ok: false, reason: why };
}

/** The certificates the server sent, leaf first, as DER (a self-issued certificate ends the walk). */
export function peerChain(socket: TLSSocket): Buffer[] {
  const out: Buffer[] = [];
  let cert = socket.getPeerCertificate(true) as { raw?: Buffer; issuerCertificate?: unknown; fingerprint256?: string } | null;
  const seen = new Set<string>();
  while (cert?.raw && !seen.has(cert.fingerprint256 ?? String(out.length))) {
    seen.add(cert.fingerprint256 ?? String(out.length));
    out.push(cert.raw);
    cert = cert.issuerCertificate as typeof cert;
  }
  return out;
}
