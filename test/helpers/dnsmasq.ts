// A real DNS server for tests: Debian's dnsmasq on a free 127.0.0.1 port, authoritative for
// exactly the records a test gives it (no upstream, no /etc/hosts), UDP and TCP.
import { createSocket } from "node:dgram";

export interface ZoneRecord {
  /** ADDRESS: `value` answers A for the name and every name under it; PTR: `name` is the
   *  in-addr.arpa/ip6.arpa name, `value` the host; FORWARD: questions under `name` go to `value`
   *  ("127.0.0.1#port": another server, or a port where none listens, for timeouts). */
  type: "TXT" | "MX" | "A" | "AAAA" | "CNAME" | "PTR" | "ADDRESS" | "FORWARD";
  name: string;
  /** TXT: the strings of ONE record, in order (as a DNS host publishes a long value). */
  strings?: string[];
  value?: string;
  priority?: number;
}

export interface DnsmasqServer {
  /** "127.0.0.1:port", the form of `[mta] dns_servers`. */
  server: string;
  port: number;
  stop(): Promise<void>;
}

async function freeUdpPort(): Promise<number> {
  const sock = createSocket("udp4");
  await new Promise<void>((resolve) => sock.bind(0, "127.0.0.1", resolve));
  const port = sock.address().port;
  await new Promise<void>((resolve) => sock.close(() => resolve()));
  return port;
}

/** Splits a value into DNS character-strings of at most `size` octets (255 is the protocol's limit). */
export const splitTxt = (value: string, size = 255): string[] =>
  Array.from({ length: Math.ceil(value.length / size) }, (_, i) => value.slice(i * size, (i + 1) * size));

function argsFor(r: ZoneRecord): string {
  switch (r.type) {
    case "TXT": return `--txt-record=${[r.name, ...(r.strings ?? [r.value ?? ""])].join(",")}`;
    case "MX": return `--mx-host=${r.name},${r.value},${r.priority ?? 10}`;
    case "A": case "AAAA": return `--host-record=${r.name},${r.value}`;
    case "PTR": return `--ptr-record=${r.name},${r.value}`;
    case "ADDRESS": return `--address=/${r.name}/${r.value}`;
    case "FORWARD": return `--server=/${r.name}/${r.value}`;
    case "CNAME": return `--cname=${r.name},${r.value}`;
  }
}

export async function startDnsmasq(records: ZoneRecord[]): Promise<DnsmasqServer> {
  for (const r of records) {
    for (const s of r.strings ?? []) if (s.includes(",") || s.length > 255) throw new Error(`TXT string unsuitable for dnsmasq: ${s.slice(0, 40)}`);
  }
  // The port is free for UDP; dnsmasq binds TCP on it too, which another socket may hold: try another port then.
  let why = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await startOn(await freeUdpPort(), records);
    if ("server" in started) return started;
    why = started.why;
    if (!/Address already in use/.test(why)) break;
  }
  throw new Error(`dnsmasq did not start: ${why}`);
}

async function startOn(port: number, records: ZoneRecord[]): Promise<DnsmasqServer | { why: string }> {
  const proc = Bun.spawn(["dnsmasq", "--keep-in-foreground", "--conf-file=/dev/null", `--port=${port}`, "--listen-address=127.0.0.1",
    "--bind-interfaces", "--no-resolv", "--no-hosts", "--no-poll", "--user=root", "--pid-file=", "--local-ttl=60",
    // Authoritative "no such name" for the test's domains instead of REFUSED (there is no upstream).
    ...[...new Set(records.map((r) => r.name.split(".").pop()!))].map((d) => `--local=/${d}/`),
    ...records.map(argsFor)], { stdout: "ignore", stderr: "pipe" });
  // Ready once it answers on UDP: poll with a tiny query until the socket is bound.
  for (let i = 0; i < 100; i++) {
    if (await answers(port)) return { server: `127.0.0.1:${port}`, port, stop: async () => { proc.kill(); await proc.exited; } };
    if (proc.exitCode !== null) break;
    await Bun.sleep(50);
  }
  proc.kill();
  return { why: await new Response(proc.stderr as ReadableStream).text() };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createSocket("udp4");
    const t = setTimeout(() => { sock.close(); resolve(false); }, 100);
    sock.on("message", () => { clearTimeout(t); sock.close(); resolve(true); });
    sock.on("error", () => { clearTimeout(t); sock.close(); resolve(false); });
    // A minimal query for "." type A, id 1.
    sock.send(Buffer.from([0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]), port, "127.0.0.1");
  });
}
