// Whether an HTTPS host presents a certificate valid for its name (the doctor's tracking check):
// a TLS handshake with SNI, verified against the system's CAs; nothing is sent over it.
import { connect } from "node:tls";

export type TlsNameOutcome = { valid: true; validTo: string } | { valid: false; error: string } | { valid: null; error: string };

/** valid true: the chain and name verify; false: a certificate came and does not; null: no answer in time. */
export function probeTlsName(host: string, port: number, timeoutMs: number): Promise<TlsNameOutcome> {
  return new Promise((resolve) => {
    const sock = connect({ host, port, servername: host, rejectUnauthorized: false });
    const done = (o: TlsNameOutcome) => { clearTimeout(timer); sock.destroy(); resolve(o); };
    const timer = setTimeout(() => done({ valid: null, error: "no TLS answer in time" }), timeoutMs);
    sock.on("error", (e) => done({ valid: null, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    sock.on("secureConnect", () => {
      const cert = sock.getPeerCertificate();
      done(sock.authorized ? { valid: true, validTo: cert.valid_to } : { valid: false, error: String(sock.authorizationError) });
    });
  });
}
