// An isolated Postfix (Debian's `postfix`, in its own config and queue directories) relaying
// everything to the bench's SMTP sink over loopback: the side-by-side reference of bench/mta.ts.
// Needs root (Postfix's master runs as root); returns null when Postfix is not installed.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const POSTFIX = "/usr/sbin/postfix";
const POSTCONF = "/usr/sbin/postconf";

export interface PostfixInstance { port: number; stop(): void; cpuSeconds(): number; rssMb(): number }

function run(cmd: string[]) {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString().trim()}`);
  return r.stdout.toString();
}

/** Postfix's processes: the master of this instance and its children (their CPU and memory). */
function instancePids(dir: string): number[] {
  const pidFile = join(dir, "queue", "pid", "master.pid");
  if (!existsSync(pidFile)) return [];
  const master = Number(readFileSync(pidFile, "utf8").trim());
  const children = run(["ps", "-o", "pid=", "--ppid", String(master)]).split("\n").map((s) => Number(s.trim())).filter(Boolean);
  return [master, ...children];
}

/** `extra`: main.cf settings on top of the stock ones below (tests add restrictions, benches transports). */
export function startPostfix(dir: string, opts: { port: number; relayPort: number; concurrency: number; extra?: Record<string, string> }): PostfixInstance | null {
  if (!existsSync(POSTFIX) || process.getuid?.() !== 0) return null;
  const conf = join(dir, "etc");
  mkdirSync(conf, { recursive: true });
  mkdirSync(join(dir, "queue"), { recursive: true });
  chmodSync(dir, 0o755); // Postfix's daemons run as the postfix user
  // Debian's master.cf with smtpd moved to our port and nothing chrooted (the temp dirs are not set up for it).
  const master = readFileSync("/etc/postfix/master.cf", "utf8")
    .replace(/^smtp(\s+inet\s+)/m, `127.0.0.1:${opts.port}$1`)
    .replace(/^(\S+\s+(?:inet|unix|unix-dgram|fifo|pass)\s+\S+\s+\S+\s+)y(\s)/gm, "$1n$2");
  writeFileSync(join(conf, "master.cf"), master);
  writeFileSync(join(conf, "main.cf"), "");
  const settings = {
    compatibility_level: "3.6", queue_directory: join(dir, "queue"), data_directory: join(dir, "data"), myhostname: "postfix.bench.test",
    mydestination: "", mynetworks: "127.0.0.0/8", inet_interfaces: "loopback-only", inet_protocols: "ipv4",
    relayhost: `[127.0.0.1]:${opts.relayPort}`, smtp_tls_security_level: "none", smtpd_tls_security_level: "none",
    default_destination_concurrency_limit: String(opts.concurrency), smtp_destination_concurrency_limit: String(opts.concurrency),
    relay_destination_concurrency_limit: String(opts.concurrency), default_process_limit: "200", smtpd_client_connection_count_limit: "0",
    smtpd_client_message_rate_limit: "0", smtpd_client_connection_rate_limit: "0", in_flow_delay: "0s", maillog_file: join(dir, "maillog"), maillog_file_prefixes: dir,
    smtp_connection_cache_on_demand: "yes", smtpd_relay_restrictions: "permit_mynetworks, reject", alias_maps: "", alias_database: "",
    smtputf8_enable: "no", biff: "no", append_dot_mydomain: "no",
    ...opts.extra,
  };
  run([POSTCONF, "-c", conf, "-e", ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)]);
  mkdirSync(settings.data_directory, { recursive: true });
  run(["chown", "postfix", settings.data_directory]);
  run([POSTFIX, "-c", conf, "start"]);
  const pids = () => instancePids(dir);
  return {
    port: opts.port,
    stop() { try { run([POSTFIX, "-c", conf, "stop"]); } catch { /* already stopped */ } },
    /** CPU (user + system) of the instance's live processes so far. */
    cpuSeconds() {
      return pids().reduce((sum, pid) => {
        try { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return sum + (Number(f[11]) + Number(f[12])) / 100; } catch { return sum; }
      }, 0);
    },
    /** Proportional memory (PSS: shared pages split between sharers) of the live processes together (MB). */
    rssMb() {
      return pids().reduce((sum, pid) => {
        try { return sum + Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]) / 1024; } catch { return sum; }
      }, 0);
    },
  };
}
