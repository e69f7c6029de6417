// The certificate provider's rules with a source of the test's own (certificates made by openssl):
// what is kept serves at once, a due certificate is replaced, a failure is reported while the old
// certificate keeps serving and clears on the next success, listeners hear every new certificate.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateProvider, type CertSource } from "../../src/tls/provider.ts";
import { certInfo } from "../../src/tls/cert-info.ts";
import { createLogger } from "../../src/log.ts";

const dir = mkdtempSync(join(tmpdir(), "provider-"));
let n = 0;
function make() {
  const tag = `c${n++}`;
  Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "90",
    "-subj", "/CN=a.example.test", "-keyout", join(dir, `${tag}.key`), "-out", join(dir, `${tag}.pem`)]);
  return { cert: readFileSync(join(dir, `${tag}.pem`), "utf8"), key: readFileSync(join(dir, `${tag}.key`), "utf8") };
}

function source(kept: { cert: string; key: string } | null) {
  const s = {
    kept, fail: null as string | null, obtained: 0,
    load: async () => s.kept,
    due: (info: { notAfter: number }, now: number) => now > info.notAfter - 30 * 86_400_000,
    obtain: async () => { if (s.fail) throw new Error(s.fail); s.obtained++; s.kept = make(); return s.kept; },
    checkEveryMs: 3_600_000, retryDelayMs: () => 3_600_000, describe: (e: unknown) => (e as Error).message,
  };
  return s;
}

const log = createLogger({ level: "silent" });

test("a kept certificate that is not due serves from the start, with no order", async () => {
  const src = source(make());
  const p = createCertificateProvider({ source: src as CertSource, now: () => Date.parse("2020-01-01"), log });
  await p.start();
  await p.renew(false);
  expect(p.current()).toEqual(src.kept);
  expect(src.obtained).toBe(0);
  expect(p.health()).toMatchObject({ state: "ok", not_after: new Date(certInfo(src.kept!.cert).notAfter).toISOString() });
  p.stop();
});

test("a due certificate is replaced; a failure keeps the old one and says why; success clears it", async () => {
  const first = make();
  const src = source(first);
  let now = Date.parse("2020-01-01");
  const p = createCertificateProvider({ source: src as CertSource, now: () => now, log });
  const heard: string[] = [];
  p.onChange((pair) => heard.push(certInfo(pair.cert).serial));
  await p.start();
  await p.renew(false);
  now = certInfo(first.cert).notAfter - 10 * 86_400_000;
  src.fail = "CA says no";
  expect(await p.renew(false)).toMatchObject({ ok: false, error: "CA says no" });
  expect(p.current()).toEqual(first);
  expect(p.health()).toMatchObject({ state: "error", error: "CA says no" });
  src.fail = null;
  const ok = await p.renew(false);
  expect(ok.ok).toBe(true);
  expect(ok.serial).not.toBe(certInfo(first.cert).serial);
  expect(p.health().state).toBe("ok");
  expect(heard).toEqual([certInfo(first.cert).serial, ok.serial!]);
  p.stop();
});

test("nothing kept and nothing obtained yet is pending; --force orders even when not due", async () => {
  const src = source(null);
  src.fail = "not yet";
  const p = createCertificateProvider({ source: src as CertSource, now: () => Date.parse("2020-01-01"), log });
  expect(p.health()).toEqual({ state: "pending" });
  src.fail = null;
  await p.renew(false);
  const serial = p.info()!.serial;
  expect((await p.renew(true)).serial).not.toBe(serial);
  expect(src.obtained).toBe(2);
  p.stop();
});
