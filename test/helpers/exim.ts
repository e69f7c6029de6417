// A private Exim (Debian's exim4-daemon-light) on a free loopback port, with its own configuration
// (-C, allowed for root), spool and log: it takes mail from anyone on loopback, relays it to the
// ports a test names per domain, queues everything (its queue runner delivers, reusing a
// connection for the messages waiting for one host, as a busy Exim does) and writes its DSNs.
//
// Installing Debian's exim4 would replace the machine's MTA, so, like scripts/real-mta-dsns.ts,
// the package is unpacked with `dpkg -x` into a cache directory (it needs `libidn12` and the
// `Debian-exim` user). EXIM=/path/to/exim4 names a binary of your own; KEEP_EXIM=1 keeps its
// spool and logs (/tmp/postern-exim-*) after the test.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { freePort } from "./free-port.ts";

const CACHE = "/var/cache/postern-test/exim";
const UNPACKED = join(CACHE, "root/usr/sbin/exim4");

const run = (cmd: string[], cwd?: string) => spawnSync(cmd[0]!, cmd.slice(1), { cwd, stdio: "pipe" }).status === 0;

/** The Exim binary, unpacked on first use when we are root with apt-get; null (with why) when there is none. */
export function findExim(): { bin: string } | { missing: string } {
  if (process.env.EXIM) return existsSync(process.env.EXIM) ? { bin: process.env.EXIM } : { missing: `EXIM=${process.env.EXIM} does not exist` };
  if (existsSync("/usr/sbin/exim4")) return { bin: "/usr/sbin/exim4" };
  if (!existsSync(UNPACKED)) {
    if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) return { missing: "Exim is not installed and we are not root with apt-get to unpack exim4-daemon-light" };
    mkdirSync(CACHE, { recursive: true });
    if (!run(["apt-get", "download", "exim4-daemon-light"], CACHE)) return { missing: "apt-get download exim4-daemon-light failed" };
    const deb = spawnSync("sh", ["-c", "ls exim4-daemon-light_*.deb | head -1"], { cwd: CACHE }).stdout.toString().trim();
    if (!deb || !run(["dpkg", "-x", deb, join(CACHE, "root")], CACHE)) return { missing: "dpkg -x exim4-daemon-light failed" };
  }
  if (!existsSync("/usr/lib/x86_64-linux-gnu/libidn.so.12") && !run(["apt-get", "install", "-y", "-o", "DPkg::Lock::Timeout=600", "libidn12"])) {
    return { missing: "Exim needs the libidn12 package" };
  }
  if (!run(["getent", "passwd", "Debian-exim"]) && !(run(["groupadd", "--system", "Debian-exim"]) &&
    run(["useradd", "--system", "-g", "Debian-exim", "-d", "/nonexistent", "-s", "/usr/sbin/nologin", "Debian-exim"]))) {
    return { missing: "Exim needs a Debian-exim user" };
  }
  return { bin: UNPACKED };
}

export interface Exim {
  port: number;
  dir: string;
  /** Exim's main log so far. */
  mainlog(): string;
  /** Messages in Exim's queue now (exim -bpc). */
  queued(): number;
  /**
   * One queue run now, to its end (`exim -qqf`: a first pass routes every message, so the second
   * delivers all the messages for one host down one connection, as a busy Exim does).
   */
  runQueue(): Promise<void>;
  stop(): Promise<void>;
}

export interface EximOptions {
  /** domain → loopback port to relay it to; "*" for every other domain. */
  routes: Record<string, number>;
  /** How long Exim waits for the reply to the end of DATA (its smtp transport's final_timeout). */
  finalTimeout?: string;
  /** Seconds between the daemon's own queue runs (none by default: the test calls runQueue). */
  queueEvery?: number;
  /** Messages Exim sends down one connection before it ends it with QUIT (its connection_max_messages; 500 unless given). */
  messagesPerConnection?: number;
  /** STARTTLS to the hosts it delivers to, when they offer it (off unless given). */
  tls?: boolean;
  /** The port to listen on (a free one unless given). */
  port?: number;
}

export async function startExim(bin: string, opts: EximOptions): Promise<Exim> {
  const dir = mkdtempSync("/tmp/postern-exim-");
  mkdirSync(join(dir, "spool"), { recursive: true });
  mkdirSync(join(dir, "log"), { recursive: true });
  run(["chown", "-R", "Debian-exim:Debian-exim", dir]);
  const port = opts.port ?? await freePort();
  const routers = Object.entries(opts.routes).sort(([a], [b]) => (a === "*" ? 1 : b === "*" ? -1 : 0)).flatMap(([domain, p], i) => [
    `route${i}:`, "  driver = manualroute", ...(domain === "*" ? [] : [`  domains = ${domain}`]),
    `  route_list = * 127.0.0.1::${p}`, "  transport = remote_smtp", "  self = send", "  no_more"]);
  const conf = join(dir, "exim.conf");
  writeFileSync(conf, [
    "primary_hostname = exim.postern.test", `exim_path = ${bin}`, "keep_environment =", `spool_directory = ${dir}/spool`,
    `log_file_path = ${dir}/log/%slog`, "log_selector = +smtp_confirmation +outgoing_port +smtp_connection +deliver_time",
    "exim_user = Debian-exim", "exim_group = Debian-exim", `daemon_smtp_ports = ${port}`, "local_interfaces = 127.0.0.1",
    "acl_smtp_rcpt = acl_check_rcpt", "tls_advertise_hosts =", "host_lookup =", "rfc1413_hosts =",
    // Everything, DSNs too, waits for a queue run, which passes an open connection on to the next message for the same host.
    "queue_only = true", "smtp_accept_max = 100",
    "begin acl", "acl_check_rcpt:", "  accept",
    "begin routers", ...routers,
    "begin transports", "remote_smtp:", "  driver = smtp", "  allow_localhost", ...(opts.tls ? [] : ["  hosts_avoid_tls = *"]),
    `  final_timeout = ${opts.finalTimeout ?? "10m"}`, `  connection_max_messages = ${opts.messagesPerConnection ?? 500}`,
    "begin retry", "* * F,1h,10s", ""].join("\n"));
  const env = { ...process.env, LD_LIBRARY_PATH: process.env.EXIM_LIBS ?? "" };
  const daemon = Bun.spawn([bin, "-C", conf, "-bdf", ...(opts.queueEvery ? [`-q${opts.queueEvery}s`] : [])], { stdout: "ignore", stderr: "pipe", env });
  const exim = (...args: string[]) => spawnSync(bin, ["-C", conf, ...args], { env, stdio: "pipe" });
  for (let i = 0; i < 50 && !readLog(dir).includes("daemon started"); i++) await Bun.sleep(100);
  if (!readLog(dir).includes("daemon started")) throw new Error(`exim did not start: ${readLog(dir, "panic")}`);
  return {
    port, dir,
    mainlog: () => readLog(dir),
    queued: () => Number(exim("-bpc").stdout.toString().trim()),
    // Asynchronous: the servers Exim delivers to may run in this very process.
    async runQueue() { await Bun.spawn([bin, "-C", conf, "-qqf"], { stdout: "ignore", stderr: "ignore", env }).exited; },
    async stop() {
      daemon.kill();
      await daemon.exited;
      if (!process.env.KEEP_EXIM) rmSync(dir, { recursive: true, force: true });
    },
  };
}

const readLog = (dir: string, name = "main") => {
  const f = join(dir, "log", `${name}log`);
  return existsSync(f) ? readFileSync(f, "utf8") : "";
};
