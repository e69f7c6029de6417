// Which servers to ask: `[mta] dns_servers` ("host:port", "host", "[v6]:port") when configured,
// else the nameservers of /etc/resolv.conf, as the system resolver would.
import { readFileSync } from "node:fs";
import type { DnsServer } from "./wire.ts";

/** "1.2.3.4", "1.2.3.4:5353", "::1", "[::1]:5353" → host and port (53 when absent). */
export function parseServer(spec: string): DnsServer {
  const s = spec.trim();
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (bracket) return { host: bracket[1]!, port: Number(bracket[2] ?? 53) };
  const colons = s.split(":").length - 1;
  if (colons === 1) {
    const [host, port] = s.split(":");
    return { host: host!, port: Number(port) };
  }
  return { host: s, port: 53 }; // no colon, or a bare IPv6 address
}

/** Nameservers listed in a resolv.conf text (comments and other options ignored). */
export function nameserversOf(text: string): DnsServer[] {
  return text.split("\n").map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1]).filter((x): x is string => !!x)
    .map((h) => ({ host: h.replace(/%.*$/, ""), port: 53 }));
}

export function serversFrom(configured: string[], resolvConf = "/etc/resolv.conf"): DnsServer[] {
  if (configured.length) return configured.map(parseServer);
  let text = "";
  try { text = readFileSync(resolvConf, "utf8"); } catch { /* no file: the loopback default below */ }
  const found = nameserversOf(text);
  return found.length ? found : [{ host: "127.0.0.1", port: 53 }];
}
