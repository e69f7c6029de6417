// The Debian packages the test suite runs for real (a DNS server, DKIM and spam checks, the
// console's browser, the PostgreSQL engine, an ACME server). test/preload.ts asks this module once
// per `bun test` process: when all are present the check is a few stat calls (no process spawned);
// when some are missing, root with apt-get installs them after one `apt-get update` and says so,
// anyone else gets one message naming the packages before a single test runs.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface Need { pkg: string; present: () => boolean }

const PATH_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];
/** True when `name` is an executable file in a PATH directory (or the usual system ones). */
export const onPath = (name: string): boolean =>
  [...(process.env.PATH ?? "").split(":").filter(Boolean), ...PATH_DIRS].some((d) => existsSync(join(d, name)));

/** Any /usr/lib/postgresql/<version>/bin with initdb (what test/helpers/postgres.ts looks for). */
const hasPostgres = (): boolean => {
  const root = "/usr/lib/postgresql";
  return existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, "bin", "initdb")));
};

/** A Python 3 module directory under the system's dist-packages (no interpreter started). */
const hasPythonModule = (name: string): boolean =>
  ["/usr/lib/python3/dist-packages", "/usr/local/lib/python3/dist-packages"].some((d) => existsSync(join(d, name)));

export const NEEDS: Need[] = [
  { pkg: "dnsmasq-base", present: () => onPath("dnsmasq") },
  { pkg: "spamassassin", present: () => onPath("spamassassin") },
  { pkg: "spamd", present: () => existsSync("/usr/sbin/spamd") },
  { pkg: "python3-dkim", present: () => hasPythonModule("dkim") },
  { pkg: "chromium", present: () => existsSync(process.env.CHROMIUM ?? "/usr/bin/chromium") },
  { pkg: "postgresql", present: hasPostgres },
  { pkg: "pebble", present: () => onPath("pebble") },
  // DANE (test/mta/delivery/dane-world.ts): a validating resolver, an authoritative server and zone signing.
  { pkg: "unbound", present: () => existsSync("/usr/sbin/unbound") },
  { pkg: "nsd", present: () => existsSync("/usr/sbin/nsd") },
  { pkg: "ldnsutils", present: () => onPath("ldns-signzone") },
  // A real receiver offering CHUNKING for the SMTP client's BDAT tests (test/mta/delivery/smtp-client.test.ts).
  { pkg: "postfix", present: () => existsSync("/usr/sbin/postfix") },
];

export const missingPackages = (needs: Need[] = NEEDS): string[] => needs.filter((n) => !n.present()).map((n) => n.pkg);

export type Plan = { action: "none" } | { action: "install"; pkgs: string[] } | { action: "fail"; message: string };

/** What to do about the missing packages, given who we are. */
export function plan(missing: string[], isRoot: boolean, hasAptGet: boolean): Plan {
  if (missing.length === 0) return { action: "none" };
  if (isRoot && hasAptGet) return { action: "install", pkgs: missing };
  const how = hasAptGet ? `as root: apt-get update && apt-get install -y ${missing.join(" ")}` : "with this system's package manager";
  return { action: "fail", message: `the tests need these Debian packages, which are missing: ${missing.join(" ")}. Install them ${how}` };
}

export interface Host {
  isRoot: boolean;
  hasAptGet: boolean;
  /** Runs a command with inherited stderr; returns its exit code. */
  run: (argv: string[]) => number;
  say: (line: string) => void;
}

const realHost = (): Host => ({
  isRoot: process.getuid?.() === 0,
  hasAptGet: onPath("apt-get"),
  run: (argv) => spawnSync(argv[0]!, argv.slice(1), { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status ?? 1,
  say: (line) => console.error(`test preload: ${line}`),
});

/** Installs what is missing when it may; returns an error message when the tests cannot run. */
export function ensureSystemPackages(needs: Need[] = NEEDS, host: Host = realHost()): string | null {
  const p = plan(missingPackages(needs), host.isRoot, host.hasAptGet);
  if (p.action === "none") return null;
  if (p.action === "fail") return p.message;
  host.say(`installing ${p.pkgs.join(" ")} (apt-get update, then apt-get install)`);
  if (host.run(["apt-get", "update", "-qq"]) !== 0) return "apt-get update failed (see above)";
  if (host.run(["apt-get", "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=600", ...p.pkgs]) !== 0) return `apt-get install ${p.pkgs.join(" ")} failed (see above)`;
  const still = missingPackages(needs);
  if (still.length > 0) return `installed, but still not found: ${still.join(" ")}`;
  host.say(`installed ${p.pkgs.join(" ")}`);
  return null;
}
