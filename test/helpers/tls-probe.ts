// What a TLS listener presents: the peer certificate of a direct TLS connection (HTTPS) or of an
// SMTP session after STARTTLS, and whether its chain verifies against a given root.
import { connect as tcpConnect, type Socket } from "node:net";
import { connect as tlsConnect, type PeerCertificate } from "node:tls";

export interface Presented { serial: string; authorized: boolean; authorizationError: string | null; cert: PeerCertificate }

function handshake(opts: { socket?: Socket; port?: number; servername: string; ca?: string }): Promise<Presented> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: "127.0.0.1", port: opts.port, socket: opts.socket, servername: opts.servername, ca: opts.ca, rejectUnauthorized: false }, () => {
      const cert = s.getPeerCertificate(true);
      resolve({ serial: cert.serialNumber.toUpperCase(), authorized: s.authorized, authorizationError: s.authorizationError ? String(s.authorizationError) : null, cert });
      s.end();
    });
    s.on("error", reject);
  });
}

export const httpsPresents = (port: number, servername: string, ca?: string) => handshake({ port, servername, ca });

/** EHLO, STARTTLS, then the handshake; rejects when STARTTLS is not offered. */
export async function starttlsPresents(port: number, servername: string, ca?: string): Promise<Presented> {
  const sock = tcpConnect(port, "127.0.0.1");
  let buffer = "";
  const waitFor = (re: RegExp) => new Promise<string>((resolve, reject) => {
    const check = () => { if (re.test(buffer)) { sock.off("data", onData); const b = buffer; buffer = ""; resolve(b); } };
    const onData = (d: Buffer) => { buffer += d.toString(); check(); };
    sock.on("data", onData);
    sock.once("error", reject);
    check();
  });
  await waitFor(/^220 .*\r\n/m);
  sock.write("EHLO probe.test\r\n");
  const ehlo = await waitFor(/^250 .*\r\n/m);
  if (!/STARTTLS/i.test(ehlo)) { sock.destroy(); throw new Error(`STARTTLS not offered: ${ehlo}`); }
  sock.write("STARTTLS\r\n");
  await waitFor(/^220 .*\r\n/m);
  return handshake({ socket: sock, servername, ca });
}
