// Certificates of the DANE tests, made with openssl: a CA and an MX certificate it issued (for
// DANE-TA), and self-signed ones (for DANE-EE, whose names and dates do not matter), plus the
// TLSA association data of each (RFC 6698 §2.1: selector 0 = the certificate, 1 = its SPKI).
import { spawnSync } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TestCert { key: string; cert: string; der: Buffer; spki: Buffer }

function openssl(dir: string, args: string[]): void {
  const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`openssl ${args.join(" ")}: ${r.stderr}`);
}

function load(dir: string, name: string): TestCert {
  const cert = readFileSync(join(dir, `${name}.crt`), "utf8");
  const x = new X509Certificate(cert);
  return { key: readFileSync(join(dir, `${name}.key`), "utf8"), cert, der: x.raw, spki: x.publicKey.export({ type: "spki", format: "der" }) as Buffer };
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** A self-signed certificate for `cn`, valid from `days` ago (negative: in the future) for 30 days. */
export function selfSigned(dir: string, name: string, cn: string): TestCert {
  openssl(dir, ["req", "-x509", ...EC, "-keyout", `${name}.key`, "-out", `${name}.crt`, "-subj", `/CN=${cn}`, "-days", "30"]);
  return load(dir, name);
}

export function testCa(dir: string, name: string): TestCert {
  openssl(dir, ["req", "-x509", ...EC, "-keyout", `${name}.key`, "-out", `${name}.crt`, "-subj", `/CN=${name} DANE test CA`, "-days", "30",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  return load(dir, name);
}

/** A certificate for `dnsName` issued by `ca` (files `${ca}.crt`/`.key` in `dir`). */
export function issued(dir: string, name: string, ca: string, dnsName: string): TestCert {
  openssl(dir, ["req", ...EC, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${dnsName}`]);
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=DNS:${dnsName}\n`);
  openssl(dir, ["x509", "-req", "-in", `${name}.csr`, "-CA", `${ca}.crt`, "-CAkey", `${ca}.key`, "-CAcreateserial", "-out", `${name}.crt`,
    "-days", "30", "-extfile", `${name}.ext`]);
  return load(dir, name);
}

export const sha256 = (b: Buffer) => createHash("sha256").update(b).digest();
export const sha512 = (b: Buffer) => createHash("sha512").update(b).digest();
/** A TLSA record's presentation form: "usage selector matching hex". */
export const tlsaText = (usage: number, selector: number, matching: number, data: Buffer) => `${usage} ${selector} ${matching} ${data.toString("hex")}`;
