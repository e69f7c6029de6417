// One DNS question to one server over the wire: UDP first, TCP when the answer is truncated
// (RFC 7766). We speak the protocol ourselves (dns-packet encodes and decodes) because Bun's
// resolveTxt splits a multi-string TXT record into one record per string, which breaks every
// 2048-bit DKIM key and long SPF record; here a record's strings stay together.
import dnsPacket from "dns-packet";
import type { Answer, DecodedPacket, RecordType } from "dns-packet";
import { createSocket } from "node:dgram";
import { connect } from "node:net";
import { isIPv6 } from "node:net";

export interface DnsServer {
  host: string;
  port: number;
}

/** What one question got: the answers of the asked type (after any CNAME chain) and the smallest TTL. */
export interface WireAnswer {
  rcode: string;
  answers: Answer[];
  ttl: number;
  /** How the answer came: "tcp" when the UDP answer was truncated. */
  via: "udp" | "tcp";
  /** The AD bit (RFC 4035 §3.2.3): the resolver validated the answer. Meaningful only when asked with DO. */
  ad: boolean;
}

export class DnsError extends Error {
  constructor(public code: string, message: string) {
    super(message);
  }
}

const MAX_UDP = 4096;

/** `dnssec`: sets DO (RFC 3225) and AD (RFC 6840 §5.7), asking a validating resolver to say whether it validated. */
function encodeQuestion(name: string, type: RecordType, id: number, dnssec: boolean): Buffer {
  return dnsPacket.encode({
    type: "query", id, flags: dnsPacket.RECURSION_DESIRED | (dnssec ? dnsPacket.AUTHENTIC_DATA : 0),
    questions: [{ type, name, class: "IN" }],
    // EDNS0: advertise a larger UDP buffer so most TXT answers need no TCP round trip.
    additionals: [{ type: "OPT", name: ".", udpPayloadSize: MAX_UDP, flags: dnssec ? dnsPacket.DNSSEC_OK : 0 } as never],
  });
}

function udpExchange(server: DnsServer, query: Buffer, id: number, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const sock = createSocket(isIPv6(server.host) ? "udp6" : "udp4");
    let settled = false;
    const done = (err: Error | null, packet?: DecodedPacket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.close();
      if (err) reject(err); else resolve(packet!);
    };
    const timer = setTimeout(() => done(new DnsError("ETIMEOUT", `DNS timeout from ${server.host}:${server.port}`)), timeoutMs);
    sock.on("error", (e) => done(new DnsError("ECONNREFUSED", e.message)));
    sock.on("message", (msg) => {
      let packet: DecodedPacket;
      try { packet = dnsPacket.decode(msg); } catch { return; }
      if (packet.id === id) done(null, packet); // a stray or spoofed datagram is ignored, not trusted
    });
    // Connected, so that a server that is not listening is known at once (the ICMP port unreachable
    // comes back as ECONNREFUSED and the next server is asked) rather than after the timeout, and
    // only datagrams from the server asked are read.
    sock.connect(server.port, server.host, () => sock.send(query));
  });
}

function tcpExchange(server: DnsServer, query: Buffer, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: server.host, port: server.port });
    let buf = Buffer.alloc(0);
    const done = (err: Error | null, packet?: DecodedPacket) => {
      clearTimeout(timer);
      sock.destroy();
      if (err) reject(err); else resolve(packet!);
    };
    const timer = setTimeout(() => done(new DnsError("ETIMEOUT", `DNS TCP timeout from ${server.host}:${server.port}`)), timeoutMs);
    sock.on("error", (e) => done(new DnsError("ECONNREFUSED", e.message)));
    sock.on("connect", () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(query.length);
      sock.write(Buffer.concat([len, query]));
    });
    sock.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2) return;
      const need = buf.readUInt16BE(0);
      if (buf.length < need + 2) return;
      try { done(null, dnsPacket.decode(buf.subarray(2, need + 2))); } catch (e) { done(e as Error); }
    });
  });
}

/** Keeps the answers of `type` reachable from `name` through the CNAME chain the server sent. */
function answersFor(packet: DecodedPacket, name: string, type: RecordType): Answer[] {
  const all = packet.answers ?? [];
  const norm = (n: string) => n.toLowerCase().replace(/\.$/, ""); // the root is "" either way
  const names = new Set([norm(name)]);
  for (let i = 0; i < 8; i++) {
    const before = names.size;
    for (const a of all) if (a.type === "CNAME" && names.has(norm(a.name))) names.add(norm(String(a.data)));
    if (names.size === before) break;
  }
  return all.filter((a) => a.type === type && names.has(norm(a.name)));
}

/** Asks one server one question; throws DnsError with Node's codes for transport failures. */
export async function exchange(server: DnsServer, name: string, type: RecordType, timeoutMs: number, dnssec = false): Promise<WireAnswer> {
  const id = crypto.getRandomValues(new Uint16Array(1))[0]!; // unpredictable: a blind spoofer must guess it
  const query = encodeQuestion(name, type, id, dnssec);
  let packet = await udpExchange(server, query, id, timeoutMs);
  const truncated = ((packet.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE) !== 0;
  if (truncated) packet = await tcpExchange(server, query, timeoutMs);
  const answers = answersFor(packet, name, type);
  const ttl = answers.length ? Math.min(...answers.map((a) => ("ttl" in a && a.ttl) || 0)) : 0;
  const ad = ((packet.flags ?? 0) & dnsPacket.AUTHENTIC_DATA) !== 0;
  return { rcode: (packet as { rcode?: string }).rcode ?? "NOERROR", answers, ttl, via: truncated ? "tcp" : "udp", ad };
}
