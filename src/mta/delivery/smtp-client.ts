// One outbound SMTP connection (nodemailer's SMTPConnection) behind promises: connect with EHLO
// and opportunistic STARTTLS, send transactions (PIPELINING when offered), RSET between them.
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { isIP } from "node:net";
import type { Hop } from "./hops.ts";

/** RFC 5321 §4.5.3.2 timeouts, shortened where waiting minutes only ties up a connection. */
const CONNECT_TIMEOUT_MS = 30_000;
const GREETING_TIMEOUT_MS = 60_000; // §4.5.3.2.1 asks 5 minutes; most MTAs greet in seconds
const SOCKET_TIMEOUT_MS = 300_000; // §4.5.3.2.6: 10 minutes after DATA end; 5 is the common practice

export interface TransactionResult {
  accepted: string[];
  /** Recipients refused at RCPT, with the reply each got. */
  rejected: { email: string; code?: number; response: string }[];
  response: string;
}

export interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  rejectedErrors?: { recipient: string; responseCode?: number; response?: string }[];
}

export interface ClientOptions {
  hostname: string;
  /** "require": fail unless STARTTLS succeeds with a valid certificate (MTA-STS enforce). */
  tls: "opportunistic" | "require" | "none";
}

export class SmtpClient {
  private conn: SMTPConnection;
  sent = 0;
  isBroken = false;
  /** Set when a transaction ended without a completed DATA: the session needs RSET (RFC 5321 §4.1.1.5). */
  needsReset = false;

  private constructor(readonly hop: Hop, conn: SMTPConnection) {
    this.conn = conn;
    conn.on("error", () => { this.isBroken = true; });
    conn.on("end", () => { this.isBroken = true; });
  }

  static open(hop: Hop, opts: ClientOptions): Promise<SmtpClient> {
    const conn = new SMTPConnection({
      host: hop.host, port: hop.port, name: opts.hostname, secure: false,
      ignoreTLS: opts.tls === "none", requireTLS: opts.tls === "require",
      // Opportunistic TLS does not check certificates (RFC 7435); MTA-STS enforce does.
      // SNI takes a host name only: a static route to an IP address sends none (RFC 6066 §3).
      tls: { rejectUnauthorized: opts.tls === "require", ...(isIP(hop.host) ? {} : { servername: hop.host }) },
      connectionTimeout: CONNECT_TIMEOUT_MS, greetingTimeout: GREETING_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS,
    } as ConstructorParameters<typeof SMTPConnection>[0]);
    return new Promise((resolve, reject) => {
      const fail = (err: Error) => { conn.close(); reject(err); };
      // A connection closed before the greeting ends without an 'error': the caller must not wait forever.
      const ended = () => fail(Object.assign(new Error("connection closed before the greeting"), { code: "ECONNECTION" }));
      conn.once("error", fail);
      conn.once("end", ended);
      conn.connect(() => {
        conn.removeListener("error", fail);
        conn.removeListener("end", ended);
        resolve(new SmtpClient(hop, conn));
      });
    });
  }

  /** One transaction. Throws (SmtpError) when nothing was accepted; per-recipient refusals are in `rejected`. */
  send(from: string, to: string[], message: Buffer): Promise<TransactionResult> {
    return new Promise((resolve, reject) => {
      this.conn.send({ from, to }, message, (err, info) => {
        this.sent++;
        this.needsReset = Boolean(err);
        if (err) { if (!(err as SmtpError).responseCode || (err as SmtpError).command === "CONN") this.isBroken = true; return reject(err); }
        const rejected = ((info as { rejectedErrors?: SmtpError[] }).rejectedErrors ?? []).map((e) => ({
          email: (e as unknown as { recipient: string }).recipient, code: e.responseCode, response: e.response ?? e.message }));
        resolve({ accepted: info.accepted as string[], rejected, response: info.response });
      });
    });
  }

  /** True once STARTTLS succeeded on this connection. */
  get isSecure(): boolean {
    return Boolean((this.conn as unknown as { secure?: boolean }).secure);
  }

  reset(): Promise<void> {
    return new Promise((resolve) => {
      this.conn.reset((err) => { if (err) this.isBroken = true; this.needsReset = false; resolve(); });
    });
  }

  close() {
    this.isBroken = true;
    try { this.conn.quit(); } catch { this.conn.close(); }
  }

  /** Drops the connection at once, mid-transaction (a stop past its grace): the send in flight fails. */
  abort() {
    this.isBroken = true;
    this.conn.close();
  }
}
