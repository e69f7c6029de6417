// Whether an HTTPS host presents a certificate valid for its name (the doctor's tracking check):
// a TLS handshake with SNI, verified against the system's CAs; nothing is sent over it.
import { checkServerIdentity, connect } from "node:tls";
import { isIP } from "node:net";

export type TlsNameOutcome = { valid: true; validTo: string } | { valid: false; error: string } | { valid: null; error: string };

/**
 * Connects to `address` (looked up by the caller through the shared resolver) and asks for `name`
 * by SNI. valid true: the chain and the name verify; false: a certificate came and does not; null:
 * no answer in time.
 */
export function probeTlsName(address: string, name: string, port: number, timeoutMs: number): Promise<TlsNameOutcome> {
  return new Promise((resolve) => {
    const sock = connect({ host: address, port, servername: isIP(name) ? undefined : name, rejectUnauthorized: false,
      checkServerIdentity: (_host, cert) => checkServerIdentity(name, cert) });
    let settled = false;
    const done = (o: TlsNameOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(o);
    };
    const timer = setTimeout(() => done({ valid: null, error: "no TLS answer in time" }), timeoutMs);
    sock.on("error", (e) => done({ valid: null, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    sock.on("secureConnect", () => {
      const cert = sock.getPeerCertificate();
      done(sock.authorized ? { valid: true, validTo: cert.valid_to } : { valid: false, error: String(sock.authorizationError) });
    });
  });
}
