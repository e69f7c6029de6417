// Does the MTA under test really sign (issue #41)? The sink counts every message's DKIM-Signature
// fields; a sample of the messages it wrote whole is verified here, after the measured part, with
// mailauth and the peer's own public keys standing in for DNS. A milter that is not reached (Postfix's
// milter_default_action = accept then passes mail unsigned) or a key that does not match shows
// here instead of passing for a fast run.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import type { MxSink } from "./shaped-mix.ts";

/** TXT records by name ("<selector>._domainkey.<domain>" → "v=DKIM1; k=rsa; p=..."). */
export type KeyRecords = Map<string, string>;

/** The count line: how many of the messages the sink accepted carry a signature, and which. */
export function signedLine(sink: MxSink, mustSign: boolean): string {
  const { messages, signed, signatures } = sink.dkim;
  const kinds = Object.entries(signatures).map(([k, n]) => `d=${k.replace(" ", " a=")} ${n}`).join(", ");
  const warn = mustSign && signed < messages ? "NOT ALL SIGNED: " : "";
  return `${warn}DKIM-Signature at the sink: ${signed} of ${messages} messages${kinds ? ` (${kinds})` : ""}`;
}

interface Verified { signingDomain?: string; algo?: string; status?: { result?: string; comment?: string | false } }

/** Verifies the samples in `dir`; `keys` answer the public-key lookups. Returns one line. */
export async function verifySamples(dir: string, keys: KeyRecords): Promise<string> {
  await Bun.sleep(200); // the sink's last writes
  const files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
  const resolver = async (name: string, type: string) => {
    const value = type === "TXT" ? keys.get(name.toLowerCase()) : undefined;
    if (!value) throw Object.assign(new Error(`no ${type} ${name}`), { code: "ENOTFOUND" });
    return [[value]];
  };
  const tally = new Map<string, { pass: number; all: number; why: Set<string> }>();
  let unsigned = 0;
  for (const f of files) {
    const { results } = (await dkimVerify(readFileSync(join(dir, f)), { resolver })) as { results: Verified[] };
    const real = results.filter((r) => r.signingDomain);
    if (!real.length) unsigned++;
    for (const r of real) {
      const k = `${r.signingDomain} ${r.algo}`;
      const t = tally.get(k) ?? { pass: 0, all: 0, why: new Set<string>() };
      t.all++;
      if (r.status?.result === "pass") t.pass++; else t.why.add(`${r.status?.result}${r.status?.comment ? `: ${r.status.comment}` : ""}`);
      tally.set(k, t);
    }
  }
  const parts = [...tally].map(([k, t]) => `d=${k.replace(" ", " a=")} ${t.pass} of ${t.all} pass${t.why.size ? ` (${[...t.why].join("; ")})` : ""}`);
  const bad = unsigned > 0 || [...tally.values()].some((t) => t.pass < t.all);
  return `${bad ? "SIGNATURES DO NOT VERIFY: " : ""}${files.length} sampled messages verified with mailauth: ${parts.join(", ") || "no signature"}` +
    (unsigned ? `; ${unsigned} unsigned` : "");
}

/** One DKIM TXT record from opendkim-genkey's <selector>.txt (a zone-file fragment with quoted strings). */
export function genkeyRecord(zoneText: string): string {
  return [...zoneText.matchAll(/"([^"]*)"/g)].map((m) => m[1]).join("");
}
