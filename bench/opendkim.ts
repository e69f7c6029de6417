// OpenDKIM (Debian's `opendkim`) as a sysadmin who must sign puts it beside Postfix (issue #41):
// an RSA-2048 key made by opendkim-genkey, Debian's /etc/opendkim.conf settings (relaxed/simple,
// From oversigned, UserID opendkim, syslog on), `Mode s`, a KeyTable and a SigningTable for the
// From domain, and the milter on a loopback TCP port, which Postfix reaches through smtpd_milters
// and non_smtpd_milters (postfixMilterSettings). A private instance: its config, key and pid file
// live in the bench's temporary directory and nothing of the system's OpenDKIM is touched; only the
// key is elsewhere, in a directory of its own under /run: OpenDKIM refuses a key in a directory tree
// anyone may write to (RequireSafeKeys, on by default, and /tmp is such a tree) and tempfails every
// message, so the key sits where a sysadmin's would (Debian's /etc/dkimkeys: root's tree, 0700).
// Needs root (it starts as root and drops to the opendkim user, as the packaged service does);
// returns null when OpenDKIM is not installed.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { genkeyRecord } from "./dkim-check.ts";

const OPENDKIM = "/usr/sbin/opendkim";
const GENKEY = "/usr/sbin/opendkim-genkey";
export const OPENDKIM_MISSING = "OpenDKIM: not installed; `apt-get install -y opendkim opendkim-tools` (run as root) adds the Postfix + OpenDKIM peer";

export interface OpenDkim {
  /** Postfix's name for the milter ("inet:127.0.0.1:PORT"). */
  milter: string;
  /** The public key's TXT record: name → value, for bench/dkim-check.ts. */
  record: [string, string];
  cpuSeconds(): number;
  pssMb(): number;
  stop(): Promise<void>;
}

function run(cmd: string[]) {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString().trim()}`);
}

/** The main.cf lines that route Postfix's mail through the milter, as OpenDKIM's README shows them. */
export const postfixMilterSettings = (d: OpenDkim) => ({
  smtpd_milters: d.milter, non_smtpd_milters: "$smtpd_milters", milter_default_action: "accept",
});

/** Starts OpenDKIM in `dir`, signing mail From any address at `domain` with selector `selector`. */
export async function startOpenDkim(dir: string, opts: { domain: string; selector: string; port: number }): Promise<OpenDkim | null> {
  if (!existsSync(OPENDKIM) || !existsSync(GENKEY) || process.getuid?.() !== 0) return null;
  const keys = mkdtempSync("/run/postern-bench-dkim-");
  chmodSync(dir, 0o755);
  run([GENKEY, "-b", "2048", "-h", "sha256", "-d", opts.domain, "-s", opts.selector, "-D", keys]);
  const keyFile = join(keys, `${opts.selector}.private`);
  run(["chown", "-R", "opendkim:opendkim", keys]);
  chmodSync(keys, 0o700);
  chmodSync(keyFile, 0o600);
  const keyName = `${opts.selector}._domainkey.${opts.domain}`;
  writeFileSync(join(dir, "key.table"), `${keyName} ${opts.domain}:${opts.selector}:${keyFile}\n`);
  writeFileSync(join(dir, "signing.table"), `*@${opts.domain} ${keyName}\n`);
  const pidFile = join(dir, "opendkim.pid");
  const conf = join(dir, "opendkim.conf");
  writeFileSync(conf, [
    "Syslog yes", "SyslogSuccess yes", "Canonicalization relaxed/simple", "OversignHeaders From",
    "UserID opendkim", "UMask 007", `Socket inet:${opts.port}@127.0.0.1`, `PidFile ${pidFile}`, "Mode s",
    `KeyTable file:${join(dir, "key.table")}`, `SigningTable refile:${join(dir, "signing.table")}`,
    "InternalHosts 127.0.0.1", "",
  ].join("\n"));
  // -f: in the foreground, so this process is the filter whose CPU and memory are counted.
  const proc = Bun.spawn([OPENDKIM, "-f", "-x", conf], { stdout: "inherit", stderr: "inherit" });
  try { await waitListening(opts.port, proc); } catch (e) { proc.kill(); rmSync(keys, { recursive: true, force: true }); throw e; }
  const record: [string, string] = [keyName, genkeyRecord(readFileSync(join(keys, `${opts.selector}.txt`), "utf8"))];
  const stat = () => readFileSync(`/proc/${proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return {
    milter: `inet:127.0.0.1:${opts.port}`, record,
    /** user + system CPU of the filter, all its threads, those ended included. */
    cpuSeconds: () => { try { const f = stat(); return (Number(f[11]) + Number(f[12])) / 100; } catch { return 0; } },
    pssMb: () => { try { return Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/smaps_rollup`, "utf8"))![1]) / 1024; } catch { return 0; } },
    async stop() { proc.kill("SIGTERM"); await proc.exited; rmSync(keys, { recursive: true, force: true }); },
  };
}

async function waitListening(port: number, proc: Bun.Subprocess) {
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`opendkim exited with ${proc.exitCode} (see its messages above)`);
    try { (await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } })).end(); return; } catch { await Bun.sleep(50); }
  }
  throw new Error(`opendkim is not listening on 127.0.0.1:${port} after 5 s`);
}
