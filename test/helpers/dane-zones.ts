// The signed DNS chain of the DANE tests, built with Debian's ldns tools (ldns-keygen,
// ldns-signzone): a test root ".", "test." and "dane.test." signed and linked by DS records; an
// unsigned "plain.test." (no DS: insecure); "broken.test." whose DS in "test." names a key it is not
// signed with (bogus: what a validating resolver must refuse, the probe's broken name). In
// "dane.test." one TLSA signature is corrupted after signing (mx-bogus), and the TLSA name of
// mx-slow is delegated to a server that never answers (the resolver's stub-zone, dane-world.ts).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** `tlsrpt`: the TXT of `_smtp._tls.<label>.dane.test` (RFC 8460 §3). */
export interface MxSpec { label: string; address: string; tlsa?: string; tlsrpt?: string }

function run(dir: string, argv: string[]): string {
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A new KSK for `zone` (ECDSA P-256); returns the key's base name and its DS record line. */
function keygen(dir: string, zone: string): { base: string; ds: string } {
  const base = run(dir, ["ldns-keygen", "-a", "ECDSAP256SHA256", "-k", zone]);
  return { base, ds: readFileSync(join(dir, `${base}.ds`), "utf8").trim() };
}

const soa = (zone: string) => `$TTL 60\n${zone} IN SOA ns.${zone === "." ? "" : zone} hostmaster.${zone === "." ? "" : zone} 1 3600 600 86400 60\n`;

function sign(dir: string, file: string, origin: string, key: string): string {
  const now = Math.floor(Date.now() / 1000);
  run(dir, ["ldns-signzone", "-i", String(now - 86_400), "-e", String(now + 30 * 86_400), "-o", origin, "-f", `${file}.signed`, file, key]);
  return `${file}.signed`;
}

/** Writes and signs every zone in `dir`; returns the zone files by name and the root's trust anchor (a DS line). */
export function buildZones(dir: string, mxs: MxSpec[], plainMx: string): { files: Record<string, string>; anchor: string } {
  const keys = { root: keygen(dir, "."), test: keygen(dir, "test."), dane: keygen(dir, "dane.test."), broken: keygen(dir, "broken.test."), stray: keygen(dir, "broken.test.") };
  const glue = (name: string) => `${name} NS ns.${name}\nns.${name} A 127.0.0.1\n`;
  let dane = soa("dane.test.") + "dane.test. NS ns.dane.test.\nns.dane.test. A 127.0.0.1\n";
  for (const m of mxs) {
    dane += `${m.label}.dane.test. MX 10 mx-${m.label}.dane.test.\nmx-${m.label}.dane.test. A ${m.address}\n`;
    if (m.tlsa) dane += `_25._tcp.mx-${m.label}.dane.test. TLSA ${m.tlsa}\n`;
    if (m.tlsrpt) dane += `_smtp._tls.${m.label}.dane.test. TXT "${m.tlsrpt}"\n`;
  }
  // mx-slow's TLSA name lives in a child zone whose server never answers (an insecure delegation).
  dane += "_tcp.mx-slow.dane.test. NS ns-slow.dane.test.\nns-slow.dane.test. A 127.0.0.1\n";
  writeFileSync(join(dir, "dane.zone"), dane);
  const daneSigned = corruptTlsaSignature(join(dir, sign(dir, "dane.zone", "dane.test.", keys.dane.base)), "_25._tcp.mx-bogus.dane.test.");
  writeFileSync(join(dir, "plain.zone"), soa("plain.test.") + glue("plain.test.") + `plain.test. MX 10 mx.plain.test.\nmx.plain.test. A ${plainMx}\n`);
  writeFileSync(join(dir, "broken.zone"), soa("broken.test.") + glue("broken.test.") + "broken.test. A 127.0.0.9\n");
  writeFileSync(join(dir, "test.zone"), soa("test.") + glue("test.") + glue("dane.test.") + glue("plain.test.") + glue("broken.test.")
    + `${keys.dane.ds}\n${keys.stray.ds}\n`); // broken.test.'s DS names the stray key: its signatures cannot be trusted
  writeFileSync(join(dir, "root.zone"), soa(".") + ". NS ns.\nns. A 127.0.0.1\n" + glue("test.") + `${keys.test.ds}\n`);
  return {
    files: {
      ".": join(dir, sign(dir, "root.zone", ".", keys.root.base)),
      "test.": join(dir, sign(dir, "test.zone", "test.", keys.test.base)),
      "dane.test.": daneSigned,
      "plain.test.": join(dir, "plain.zone"),
      "broken.test.": join(dir, sign(dir, "broken.zone", "broken.test.", keys.broken.base)),
    },
    anchor: keys.root.ds,
  };
}

/** Flips one character of the signature over `name`'s TLSA records: the record stays, its proof breaks. */
function corruptTlsaSignature(file: string, name: string): string {
  const lines = readFileSync(file, "utf8").split("\n").map((l) => {
    const f = l.split(/\s+/);
    if (f[0] !== name || !f.includes("RRSIG") || f[f.indexOf("RRSIG") + 1] !== "TLSA") return l;
    const sig = f.at(-1)!;
    const flipped = (sig[10] === "A" ? "B" : "A");
    return l.slice(0, l.length - sig.length) + sig.slice(0, 10) + flipped + sig.slice(11);
  });
  writeFileSync(file, lines.join("\n"));
  return file;
}

export const listDir = (dir: string) => readdirSync(dir);
