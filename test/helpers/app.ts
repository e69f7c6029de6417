// makeTestApp: a real app on a temporary data dir with a config written as TOML (so tests go
// through the same loading path as users), a MockResolver, and quiet logs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger, type Logger } from "../../src/log.ts";
import { createMockResolver, type MockZone, type Resolver } from "../../src/dns.ts";

export interface TestApp {
  app: App;
  dir: string;
  /** A domain key for `domain` (added, active). */
  domainKey: string;
  accountKey: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  toml?: string;
  dns?: Record<string, MockZone>;
  /** A logger of the test's own (default: silent unless POSTERN_LOG is set). */
  log?: Logger;
  /** A resolver of the test's own (instead of a MockResolver from `dns`). */
  resolver?: Resolver;
  domain?: string;
  dir?: string;
  keepDir?: boolean;
  /** The app's clock (default Date.now). */
  now?: () => number;
  /** server.public_url (default the contract's http://127.0.0.1:8025). */
  publicUrl?: string;
  /** Extra lines for the [server] section (e.g. `rate_limit_per_key = 5`). */
  serverToml?: string;
  /** Extra lines for the [smtp] section. */
  smtpToml?: string;
  /** [server] listen (default 127.0.0.1:0), for tests whose public_url must name the real port. */
  listen?: string;
}

/** Writes a test config: loopback on random ports, fast retries; `extra` is appended (own sections). */
export function writeConfig(dir: string, extra = "", serverExtra = "", smtpExtra = "", listen = "127.0.0.1:0"): string {
  const file = join(dir, "postern.toml");
  writeFileSync(file, `[server]\nlisten = "${listen}"\n${serverExtra}[smtp]\nlisten = "127.0.0.1:0"\n${smtpExtra}[mta]\nhostname = "mta.test"\nretry = ["1s"]\n${extra}\n`);
  return file;
}

export async function makeTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "postern-test-"));
  const file = writeConfig(dir, opts.toml, (opts.publicUrl ? `public_url = "${opts.publicUrl}"\n` : "") + (opts.serverToml ? `${opts.serverToml}\n` : ""),
    opts.smtpToml ? `${opts.smtpToml}\n` : "", opts.listen);
  const config = loadConfig({ file, env: {} });
  const app = await createApp(config, {
    resolver: opts.resolver ?? createMockResolver(opts.dns ?? {}), now: opts.now,
    log: opts.log ?? createLogger({ level: process.env.POSTERN_LOG ? "debug" : "silent" }),
  });
  const domain = opts.domain ?? "example.com";
  if (!(await app.domains.get(domain))) {
    await app.domains.add(domain);
    await app.domains.verify(domain, true);
  }
  const dk = await app.access.createKey({ kind: "domain", domain });
  const ak = await app.access.createKey({ kind: "account" });
  return {
    app, dir, domainKey: dk.key, accountKey: ak.key,
    async close() {
      await app.stop();
      if (!opts.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Readies the data directory of the config `file` for a `postern serve` of its own process: a
 * scratch app adds `domain` (active) and a sending key for it, runs `prepare` (parked rows, SMTP
 * credentials...) and stops. Returns the key.
 */
export async function prepareDomainKey(file: string, domain: string, prepare?: (app: App) => Promise<void>): Promise<string> {
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "warn" }) });
  try {
    await app.domains.add(domain);
    await app.domains.verify(domain, true);
    const key = (await app.access.createKey({ kind: "domain", domain })).key;
    await prepare?.(app);
    return key;
  } finally {
    await app.stop();
  }
}
