// RSA through the system's OpenSSL: parsed keys are native memory, given back when a signer is
// freed or nobody holds it any more (byte-identical signatures: sign.test.ts).
import { expect, test } from "bun:test";
import { openSsl, openSslKeysHeld, openSslRsaSigner } from "../../../src/mta/message/openssl-rsa.ts";
import { generateDkimKeys } from "../../../src/core/dkim-keys.ts";

const rsaPem = async () => (await generateDkimKeys("o1")).find((k) => k.algorithm === "rsa-sha256")!.privateKeyPem;

test("signers nobody holds any more give their keys back to OpenSSL", async () => {
  expect(openSsl()).not.toBeNull();
  const pem = await rsaPem();
  const before = openSslKeysHeld();
  (() => { for (let i = 0; i < 50; i++) expect(openSslRsaSigner(pem)!.sign(new Uint8Array([i])).byteLength).toBe(256); })();
  expect(openSslKeysHeld()).toBe(before + 50);
  for (let i = 0; i < 20 && openSslKeysHeld() > before + 5; i++) { Bun.gc(true); await Bun.sleep(20); }
  expect(openSslKeysHeld()).toBeLessThanOrEqual(before + 5);
});

test("free() gives the key back at once, once, and the signer refuses to sign after it", async () => {
  const signer = openSslRsaSigner(await rsaPem())!;
  const before = openSslKeysHeld();
  signer.free();
  signer.free();
  expect(openSslKeysHeld()).toBe(before - 1);
  expect(() => signer.sign(new Uint8Array([1]))).toThrow("RSA key freed");
});
