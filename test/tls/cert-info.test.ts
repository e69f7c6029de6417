// Reading certificates: names, serial and dates as openssl wrote them; the renewal point at two
// thirds of the lifetime; whether a key belongs to a certificate.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certInfo, covers, keyMatches, renewAt } from "../../src/tls/cert-info.ts";

const dir = mkdtempSync(join(tmpdir(), "certinfo-"));
function make(tag: string, days: number) {
  const r = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", String(days),
    "-subj", "/CN=a.example.test", "-addext", "subjectAltName=DNS:a.example.test,DNS:b.example.test", "-keyout", join(dir, `${tag}.key`), "-out", join(dir, `${tag}.pem`)]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  const serial = Bun.spawnSync(["openssl", "x509", "-in", join(dir, `${tag}.pem`), "-noout", "-serial"]).stdout.toString().trim().split("=")[1]!;
  return { cert: readFileSync(join(dir, `${tag}.pem`), "utf8"), key: readFileSync(join(dir, `${tag}.key`), "utf8"), serial };
}

test("names, serial and lifetime of a certificate; renewal once a third of it remains", () => {
  const a = make("a", 90);
  const info = certInfo(a.cert);
  expect(info.names).toEqual(["a.example.test", "b.example.test"]);
  expect(info.serial).toBe(a.serial.toUpperCase());
  expect(info.issuer).toBe("a.example.test");
  expect(Math.round((info.notAfter - info.notBefore) / 86_400_000)).toBe(90);
  expect(Math.round((renewAt(info) - info.notBefore) / 86_400_000)).toBe(60);
  expect(covers(info, ["b.example.test"])).toBe(true);
  expect(covers(info, ["a.example.test", "c.example.test"])).toBe(false);
});

test("a key matches only its own certificate", () => {
  const a = make("a2", 1);
  const b = make("b2", 1);
  expect(keyMatches(a)).toBe(true);
  expect(keyMatches({ cert: a.cert, key: b.key })).toBe(false);
  expect(keyMatches({ cert: a.cert, key: "not a key" })).toBe(false);
});
