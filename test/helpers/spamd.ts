// A real SpamAssassin spamd (Debian's `spamd`) on a loopback port for tests: local tests only
// (-L: no DNS or network checks), no per-user config, one child. Stopped by its pid.
import { mkdtempSync, readFileSync, rmSync, chmodSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

export interface Spamd { address: string; port: number; stop(): Promise<void> }


const answers = (port: number) => new Promise<boolean>((resolve) => {
  const c = connect({ host: "127.0.0.1", port }, () => { c.destroy(); resolve(true); });
  c.on("error", () => resolve(false));
});

export async function startSpamd(): Promise<Spamd> {
  const dir = mkdtempSync(join(tmpdir(), "postern-spamd-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const proc = Bun.spawn(["/usr/sbin/spamd", `--listen=127.0.0.1:${port}`, "--local", "--nouser-config", "--max-children=1", "--min-children=1",
    "--allowed-ips=127.0.0.1", "--syslog=stderr", `--pidfile=${join(dir, "pid")}`, "-u", "nobody"], { stdout: "ignore", stderr: "pipe" });
  const until = Date.now() + 60_000;
  while (!(await answers(port))) {
    if (proc.exitCode !== null || Date.now() > until) {
      // KILL, and a bounded read: a spamd busy loading its rules may hold TERM and its stderr open,
      // and the hook's own timeout would then hide this message.
      proc.kill("SIGKILL");
      const stderr = await Promise.race([new Response(proc.stderr as ReadableStream).text(), Bun.sleep(2_000).then(() => "(stderr still open)")]);
      throw new Error(`spamd did not start in 60 s (exit ${proc.exitCode}): ${stderr.slice(-500)}`);
    }
    await Bun.sleep(100);
  }
  return {
    address: `127.0.0.1:${port}`, port,
    async stop() {
      // The parent forks children; TERM to the parent (by its pid file) ends them all.
      let pid = proc.pid;
      try { pid = Number(readFileSync(join(dir, "pid"), "utf8").trim()) || proc.pid; } catch { /* not written yet */ }
      try { process.kill(pid, "SIGTERM"); } catch { /* already gone */ }
      await Promise.race([proc.exited, Bun.sleep(5_000)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
