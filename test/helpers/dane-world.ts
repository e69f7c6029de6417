// The DANE test world on loopback, started once per test file: the signed zones of dane-zones.ts
// served by NSD (authoritative), an unbound that validates with the test root's key as its trust
// anchor, a second unbound that does not validate, and a "server" that never answers (the TLSA
// look-up that times out). Both resolvers reach every zone through stub-zones to NSD's port
// ("test." is one of unbound's built-in empty local zones, RFC 6761; `nodefault` lifts that).
import { spawn, type ChildProcess } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildZones, type MxSpec } from "./dane-zones.ts";
import { freePort } from "./free-port.ts";

export interface DaneWorld {
  /** "127.0.0.1:port" of the validating resolver and of the one that does not validate. */
  validating: string;
  plain: string;
  stop(): Promise<void>;
}

const ZONES = [".", "test.", "dane.test.", "plain.test.", "broken.test."];

function nsdConf(dir: string, port: number, files: Record<string, string>): string {
  return `server:\n  ip-address: 127.0.0.1@${port}\n  port: ${port}\n  username: ""\n  chroot: ""\n  zonesdir: "${dir}"\n  database: ""\n`
    + `  zonelistfile: "${dir}/zone.list"\n  xfrdfile: "${dir}/xfrd.state"\n  xfrdir: "${dir}"\n  pidfile: "${dir}/nsd.pid"\n  logfile: "${dir}/nsd.log"\n`
    + `  server-count: 1\n  do-ip6: no\n  reuseport: no\n  verbosity: 1\nremote-control:\n  control-enable: no\n`
    + Object.entries(files).map(([name, file]) => `zone:\n  name: "${name}"\n  zonefile: "${file}"\n`).join("");
}

function unboundConf(dir: string, port: number, nsd: number, blackhole: number, validate: boolean): string {
  const stubs = ZONES.map((z) => `stub-zone:\n  name: "${z}"\n  stub-addr: 127.0.0.1@${nsd}\n`).join("")
    + `stub-zone:\n  name: "_tcp.mx-slow.dane.test."\n  stub-addr: 127.0.0.1@${blackhole}\n`;
  return `server:\n  interface: 127.0.0.1@${port}\n  port: ${port}\n  do-ip6: no\n  do-not-query-localhost: no\n  username: ""\n  chroot: ""\n`
    + `  directory: "${dir}"\n  pidfile: ""\n  use-syslog: no\n  logfile: ""\n  num-threads: 1\n  so-reuseport: no\n  access-control: 127.0.0.0/8 allow\n`
    + `  local-zone: "test." nodefault\n  qname-minimisation: no\n  outgoing-interface: 127.0.0.1\n  verbosity: 0\n  cache-max-ttl: 5\n  cache-max-negative-ttl: 5\n  infra-host-ttl: 5\n`
    + (validate ? `  module-config: "validator iterator"\n  trust-anchor-file: "${dir}/root.ds"\n  val-log-level: 1\n` : `  module-config: "iterator"\n`)
    + `remote-control:\n  control-enable: no\n` + stubs;
}

/** Resolves once `port` on 127.0.0.1 accepts TCP (the daemon is up), or throws after `ms`. */
async function waitTcp(port: number, what: string, proc: ChildProcess, log: () => string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${what} exited: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = Bun.connect({ hostname: "127.0.0.1", port, socket: { open(sock) { sock.end(); resolve(true); }, data() {}, connectError() { resolve(false); }, error() { resolve(false); } } })
        .catch(() => resolve(false));
      void s;
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start: ${log()}`);
    await Bun.sleep(100);
  }
}

function daemon(argv: string[]): { proc: ChildProcess; log: () => string } {
  let out = "";
  const proc = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  proc.stdout!.on("data", (d) => { out += d; });
  proc.stderr!.on("data", (d) => { out += d; });
  return { proc, log: () => out.slice(-2000) };
}

/** A UDP and TCP port that takes questions and never answers. */
async function blackhole(): Promise<{ port: number; close(): void }> {
  const port = await freePort();
  const udp: Socket = createSocket("udp4");
  await new Promise<void>((r) => udp.bind(port, "127.0.0.1", r));
  const tcp: Server = createServer(() => {});
  await new Promise<void>((r) => tcp.listen(port, "127.0.0.1", r));
  return { port, close() { udp.close(); tcp.close(); } };
}

export async function startDaneWorld(mxs: MxSpec[], plainMx: string): Promise<DaneWorld> {
  const dir = mkdtempSync(join(tmpdir(), "postern-dane-"));
  const { files, anchor } = buildZones(dir, mxs, plainMx);
  writeFileSync(join(dir, "root.ds"), `${anchor}\n`);
  const hole = await blackhole();
  const [nsdPort, valPort, plainPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(join(dir, "nsd.conf"), nsdConf(dir, nsdPort, files));
  writeFileSync(join(dir, "val.conf"), unboundConf(dir, valPort, nsdPort, hole.port, true));
  writeFileSync(join(dir, "plain.conf"), unboundConf(dir, plainPort, nsdPort, hole.port, false));
  const nsd = daemon(["/usr/sbin/nsd", "-d", "-c", join(dir, "nsd.conf")]);
  const val = daemon(["/usr/sbin/unbound", "-d", "-c", join(dir, "val.conf")]);
  const plain = daemon(["/usr/sbin/unbound", "-d", "-c", join(dir, "plain.conf")]);
  const all = [nsd, val, plain];
  try {
    await waitTcp(nsdPort, "nsd", nsd.proc, nsd.log);
    await waitTcp(valPort, "unbound (validating)", val.proc, val.log);
    await waitTcp(plainPort, "unbound (not validating)", plain.proc, plain.log);
  } catch (e) {
    for (const d of all) d.proc.kill();
    hole.close();
    throw e;
  }
  return {
    validating: `127.0.0.1:${valPort}`, plain: `127.0.0.1:${plainPort}`,
    async stop() {
      for (const d of all) d.proc.kill();
      await Promise.all(all.map((d) => (d.proc.exitCode !== null ? null : new Promise((r) => d.proc.once("exit", r)))));
      hole.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
