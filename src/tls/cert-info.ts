// What a PEM certificate says about itself: names, issuer, serial and validity, read with
// node:crypto's X509Certificate (Bun implements it), for status, renewal and tests.
import { X509Certificate, createPrivateKey } from "node:crypto";

export interface CertInfo {
  names: string[];
  issuer: string;
  /** Upper-case hex, as openssl prints it. */
  serial: string;
  notBefore: number;
  notAfter: number;
}

/** The first certificate of a PEM bundle (the leaf; the chain follows it). */
export function leafPem(pem: string): string {
  const m = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/);
  if (!m) throw new Error("no PEM certificate found");
  return m[0];
}

export function certInfo(pem: string): CertInfo {
  const c = new X509Certificate(leafPem(pem));
  const sans = (c.subjectAltName ?? "").split(/,\s*/).filter((s) => s.startsWith("DNS:") || s.startsWith("IP Address:"))
    .map((s) => s.replace(/^(DNS|IP Address):/, ""));
  const cn = c.subject.match(/CN=([^\n,]+)/)?.[1];
  const issuerCn = c.issuer.match(/CN=([^\n,]+)/)?.[1];
  return {
    names: sans.length ? sans : cn ? [cn] : [],
    issuer: issuerCn ?? c.issuer.replace(/\n/g, ", "),
    serial: c.serialNumber.toUpperCase(),
    notBefore: c.validFromDate.getTime(),
    notAfter: c.validToDate.getTime(),
  };
}

/** When a certificate is due: once a third of its lifetime remains (contract §11). */
export const renewAt = (info: CertInfo): number => info.notAfter - (info.notAfter - info.notBefore) / 3;

/** True when `names` are all on the certificate (a changed `hostnames` asks for a new one). */
export const covers = (info: CertInfo, names: string[]): boolean => names.every((n) => info.names.includes(n.toLowerCase()));

/** True when `key` is the private key of the certificate's leaf. */
export function keyMatches(pair: { cert: string; key: string }): boolean {
  try { return new X509Certificate(leafPem(pair.cert)).checkPrivateKey(createPrivateKey(pair.key)); } catch { return false; }
}
