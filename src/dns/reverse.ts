// The reversed form of an address that PTR look-ups and DNS blocklists (RFC 5782 §2.1, §2.4) ask
// under: IPv4 octets in reverse order, IPv6 as 32 nibbles in reverse order.
import { isIPv4, isIPv6 } from "node:net";

/** Expands an IPv6 address to its 32 hex digits ("::1" → "000…0001"). */
function ipv6Nibbles(ip: string): string {
  let text = ip.toLowerCase().replace(/%.*$/, "");
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const o = v4[1]!.split(".").map(Number);
    text = text.slice(0, -v4[1]!.length) + `${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.map((g) => g.padStart(4, "0")).join("");
}

/** "192.0.2.1" → "1.2.0.192"; "2001:db8::1" → "1.0.0.0.….8.b.d.0.1.0.0.2"; null for anything else. */
export function reversedLabels(ip: string): string | null {
  if (isIPv4(ip)) return ip.split(".").reverse().join(".");
  if (isIPv6(ip)) return ipv6Nibbles(ip).split("").reverse().join(".");
  return null;
}

/** The PTR name of an address: `…in-addr.arpa` or `…ip6.arpa`. */
export function reverseName(ip: string): string | null {
  const labels = reversedLabels(ip);
  return labels && `${labels}.${isIPv4(ip) ? "in-addr" : "ip6"}.arpa`;
}
