// Let's Encrypt's ACME test server (Debian's `pebble`) on free loopback ports, with a TLS
// certificate of its own made here (the package ships none) and a DNS server the test gives it.
// Validation is real: Pebble connects to `httpPort` on the address the DNS names to check HTTP-01.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

export interface PebbleServer {
  /** https://127.0.0.1:port/dir */
  directory: string;
  /** PEM of the CA that signed Pebble's own HTTPS certificate: `[tls] acme_ca_file`. */
  caFile: string;
  /** PEM of the root Pebble issues under (from its management endpoint). */
  root(): Promise<string>;
  stop(): Promise<void>;
  /** Starts it again on the same ports (a fresh CA: Pebble keeps nothing). */
  restart(): Promise<void>;
}

function run(cmd: string[], cwd: string) {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString()}`);
}

/** A CA and a certificate for 127.0.0.1/localhost signed by it, made with openssl. */
function makeListenerCert(dir: string) {
  run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
    "-subj", "/CN=pebble test listener CA", "-keyout", "ca.key", "-out", "ca.pem"], dir);
  run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
    "-keyout", "listener.key", "-out", "listener.csr"], dir);
  writeFileSync(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  run(["openssl", "x509", "-req", "-in", "listener.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
    "-extfile", "ext.cnf", "-out", "listener.pem"], dir);
}

/** `httpPort`: where Pebble checks HTTP-01 answers (the postern under test's `http_listen` port). */
export async function startPebble(opts: { httpPort: number; dnsServer: string }): Promise<PebbleServer> {
  const dir = mkdtempSync(join(tmpdir(), "pebble-"));
  makeListenerCert(dir);
  const port = await freePort();
  const mgmt = await freePort();
  writeFileSync(join(dir, "config.json"), JSON.stringify({ pebble: {
    listenAddress: `127.0.0.1:${port}`, managementListenAddress: `127.0.0.1:${mgmt}`,
    certificate: join(dir, "listener.pem"), privateKey: join(dir, "listener.key"),
    httpPort: opts.httpPort, tlsPort: await freePort(), ocspResponderURL: "", externalAccountBindingRequired: false,
  } }));
  const caFile = join(dir, "ca.pem");
  const ca = await Bun.file(caFile).text();
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  let log = "";
  const start = async () => {
    // No sleeps before validation, no rejected nonces (the client's retry is tested elsewhere).
    proc = Bun.spawn(["pebble", "-config", join(dir, "config.json"), "-dnsserver", opts.dnsServer], {
      cwd: dir, stdout: "pipe", stderr: "pipe",
      env: { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0" },
    });
    void new Response(proc.stdout as ReadableStream).text().then((t) => { log += t; });
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`https://127.0.0.1:${port}/dir`, { tls: { ca } }).then((r) => r.ok, () => false);
      if (ok) return;
      if (proc.exitCode !== null) break;
      await Bun.sleep(50);
    }
    proc.kill();
    throw new Error(`pebble did not start: ${log} ${await new Response(proc.stderr as ReadableStream).text()}`);
  };
  const stop = async () => { if (proc) { proc.kill(); await proc.exited; proc = null; } };
  await start();
  return {
    directory: `https://127.0.0.1:${port}/dir`, caFile, stop, restart: start,
    root: async () => (await fetch(`https://127.0.0.1:${mgmt}/roots/0`, { tls: { ca } })).text(),
  };
}
