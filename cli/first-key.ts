// The primary key of a first start, kept out of logs: a service's stdout and stderr end in the
// journal, so the key goes to a file only the service user can read (0600, in the data dir) and
// is printed only to a terminal. Where the file is, is always said.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const PRIMARY_KEY_FILE = "primary-key";

/** Writes `key` to `<dataDir>/primary-key` (0600) and returns the line to show on `stream`. */
export function saveFirstKey(key: string, dataDir: string, isTerminal: boolean): string {
  const file = join(dataDir, PRIMARY_KEY_FILE);
  // With the PostgreSQL engine nothing else creates data_dir.
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return isTerminal
    ? `created the account; its primary key (shown once, also in ${file}, mode 0600): ${key}\n`
    : `created the account; its primary key is in ${file} (mode 0600; read it, then delete the file)\n`;
}
