// Certificates of the operator's own: `[tls] cert_file` and `key_file`, read again every
// `reload_interval` (10 s by default) so a replaced pair is served within the minute the contract
// allows, without a restart.
import { readFileSync } from "node:fs";
import type { CertSource } from "./provider.ts";

export function createFileSource(files: { cert: string; key: string }, everyMs = 10_000): CertSource {
  return {
    // Both files are read in one go; a pair caught half-replaced fails the key check in the listener
    // and the next read picks up the finished pair.
    load: async () => ({ cert: readFileSync(files.cert, "utf8"), key: readFileSync(files.key, "utf8") }),
    due: () => false,
    checkEveryMs: everyMs,
    retryDelayMs: () => everyMs,
    describe: (e) => (e as Error)?.message ?? String(e),
  };
}
