// The client's IP: the socket peer, or the right-most untrusted X-Forwarded-For hop when the peer
// is one of server.trusted_proxies (so a client cannot forge its address).
import { BlockList, isIPv4, isIPv6 } from "node:net";

export function createClientIp(trusted: readonly string[]) {
  const list = new BlockList();
  for (const cidr of trusted) {
    const [addr, bits] = cidr.split("/");
    if (!addr) continue;
    const type = isIPv6(addr) ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  const isTrusted = (ip: string) => {
    const plain = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
    if (isIPv4(plain)) return list.check(plain, "ipv4");
    return isIPv6(plain) ? list.check(plain, "ipv6") : false;
  };
  return (peer: string, headers: Headers): string => {
    const plainPeer = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
    if (!isTrusted(plainPeer)) return plainPeer;
    const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(hops[i]!)) return hops[i]!;
    return hops[0] ?? plainPeer;
  };
}
