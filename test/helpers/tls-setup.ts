// What the TLS tests share: a config with [tls] pointing at a Pebble, and polling for a state the
// certificate provider reaches in the background.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PebbleServer } from "./pebble.ts";

export const NAME = "mail.example.test";

export interface TlsPorts { http: number; smtp: number; redirect: number }

/** Writes dir/postern.toml: ACME from `pebble` for NAME, listeners on `ports`, data in dir/postern-data. */
export function writeAcmeConfig(dir: string, ports: TlsPorts, pebble: PebbleServer): string {
  const file = join(dir, "postern.toml");
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:${ports.http}"\npublic_url = "https://${NAME}:${ports.http}"\n` +
    `[smtp]\nlisten = "127.0.0.1:${ports.smtp}"\n[mta]\nhostname = "${NAME}"\n` +
    `[tls]\nacme = true\nacme_directory = "${pebble.directory}"\nacme_ca_file = "${pebble.caFile}"\nacme_email = "ops@example.test"\n` +
    `http_listen = "127.0.0.1:${ports.redirect}"\n`);
  return file;
}

/** Polls every 200 ms until `ok` holds; fails after `seconds` with the last value. */
export async function until<T>(what: string, get: () => Promise<T> | T, ok: (v: T) => boolean, seconds = 60): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < seconds * 5; i++) {
    last = await get();
    if (ok(last)) return last;
    await Bun.sleep(200);
  }
  throw new Error(`${what}: still ${JSON.stringify(last)}`);
}

/**
 * /healthz of the server on `port`, over HTTPS or (no certificate yet) plain HTTP; {} while neither
 * answers: the listener is swapped to HTTPS in place when the certificate arrives, and a request
 * caught in the swap is reset (a poll asks again).
 */
export const healthOn = async (port: number) => (await fetch(`https://127.0.0.1:${port}/healthz`, { tls: { rejectUnauthorized: false } })
  .catch(() => fetch(`http://127.0.0.1:${port}/healthz`)).then((r) => r.json()).catch(() => ({}))) as { tls?: { state: string; error?: string; not_after?: string } };
