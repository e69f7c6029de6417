// data_dir/tls: what is saved reads back, directory 0700, files 0600 (also a file that existed
// with a looser mode before).
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileCertStore, tlsDir } from "../../src/tls/cert-store.ts";

test("saved certificate and account key read back, with modes 0700/0600", async () => {
  const data = mkdtempSync(join(tmpdir(), "certstore-"));
  const store = createFileCertStore(data);
  expect(await store.loadCert()).toBeNull();
  expect(await store.loadAccountKey()).toBeNull();
  mkdirSync(tlsDir(data), { mode: 0o755 });
  writeFileSync(join(tlsDir(data), "cert.pem"), "old");
  chmodSync(join(tlsDir(data), "cert.pem"), 0o644);
  await store.saveCert({ cert: "CERT", key: "KEY" });
  await store.saveAccountKey("ACCOUNT");
  expect(await store.loadCert()).toEqual({ cert: "CERT", key: "KEY" });
  expect(await store.loadAccountKey()).toBe("ACCOUNT");
  expect(statSync(tlsDir(data)).mode & 0o777).toBe(0o700);
  expect(readdirSync(tlsDir(data)).sort()).toEqual(["account.key", "cert.pem", "key.pem"]);
  for (const f of readdirSync(tlsDir(data))) expect(statSync(join(tlsDir(data), f)).mode & 0o777).toBe(0o600);
});
