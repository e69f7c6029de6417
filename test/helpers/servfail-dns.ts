// A real DNS server on a free 127.0.0.1 UDP port that answers every question SERVFAIL: what a
// broken or overloaded list's servers answer. dnsmasq forwards a zone to it (type FORWARD).
import { createSocket } from "node:dgram";
import dnsPacket from "dns-packet";

export async function startServfailDns(): Promise<{ port: number; stop(): void }> {
  const sock = createSocket("udp4");
  sock.on("message", (msg, from) => {
    let q: ReturnType<typeof dnsPacket.decode>;
    try { q = dnsPacket.decode(msg); } catch { return; }
    const reply = dnsPacket.encode({ type: "response", id: q.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | 2, questions: q.questions });
    sock.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => sock.bind(0, "127.0.0.1", resolve));
  return { port: sock.address().port, stop: () => sock.close() };
}
