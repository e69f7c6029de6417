// Which names go on the certificate when `[tls] hostnames` is empty, and when TLS is on at all.
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { certificateNames, tlsEnabled } from "../../src/tls/index.ts";

const dir = mkdtempSync(join(tmpdir(), "tls-names-"));
const config = (toml: string) => {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, toml);
  return loadConfig({ file, env: {} });
};

test("empty hostnames: public_url's host and mta.hostname, once each, lower-case", () => {
  expect(certificateNames(config(`[server]\npublic_url = "https://Mail.Example.test:8443"\n[mta]\nhostname = "mx.example.test"\n[tls]\nacme = true\n`)))
    .toEqual(["mail.example.test", "mx.example.test"]);
  expect(certificateNames(config(`[server]\npublic_url = "https://mail.example.test"\n[mta]\nhostname = "mail.example.test"\n`))).toEqual(["mail.example.test"]);
});

test("IP literals, localhost and an unset mta.hostname are left out; hostnames replaces the defaults", () => {
  expect(certificateNames(config(`[server]\npublic_url = "http://127.0.0.1:8025"\n`))).toEqual([]);
  expect(certificateNames(config(`[server]\npublic_url = "http://localhost:8025"\n`))).toEqual([]);
  expect(certificateNames(config(`[tls]\nhostnames = ["a.example.test", "b.example.test"]\n`))).toEqual(["a.example.test", "b.example.test"]);
});

test("TLS is on with acme or certificate files, off otherwise", () => {
  expect(tlsEnabled(config(""))).toBe(false);
  expect(tlsEnabled(config(`[tls]\nacme = true\n`))).toBe(true);
  expect(tlsEnabled(config(`[tls]\ncert_file = "a"\nkey_file = "b"\n`))).toBe(true);
});
