// A scripted SMTP server on 127.0.0.1:0 that records every transaction and answers the codes a
// test chooses per recipient and attempt (after smtp-server's own tests).
import { SMTPServer, type SMTPServerSession } from "smtp-server";

export interface SinkMessage {
  from: string;
  to: string[];
  raw: Buffer;
  /** `remoteAddress`: the client's address (an egress source's), `hostNameAppearsAs`: its EHLO name. */
  session: { secure: boolean; hostNameAppearsAs?: string; remoteAddress?: string };
  /** True once the sink has answered the end of DATA (before that, the message is still in flight). */
  replied: boolean;
  /** When the sink answered 250 (ms since the epoch, sub-millisecond): what a kill -9 test compares with its kill. */
  repliedAt?: number;
}

/** Decides the reply to RCPT TO: null accepts; otherwise the code and message to refuse with. */
export type RcptScript = (rcpt: string, attempt: number) => { code: number; message: string } | null;

export interface Sink {
  port: number;
  messages: SinkMessage[];
  connections: number;
  /** Connections open now, and the most open at once since the start or the last resetPeak(). */
  open: number;
  peakOpen: number;
  resetPeak(): void;
  /** Resolves when `n` messages have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<SinkMessage[]>;
  close(): Promise<void>;
}

export interface SinkOptions {
  script?: RcptScript; hideStartTls?: boolean; delayMs?: number;
  /** Where to listen: 127.0.0.1 and a free port unless given (an MX test listens on 127.0.0.x:25). */
  host?: string; port?: number;
  /** Beyond this many connections open at once, a new one is answered "421 4.7.0 Too many connections" and closed. */
  maxConnections?: number;
  /** PEM key and certificate chain offered on STARTTLS (a DANE test's own); absent: smtp-server's built-in one. */
  tls?: { key: string; cert: string };
}

export async function startSink(opts: SinkOptions = {}): Promise<Sink> {
  const messages: SinkMessage[] = [];
  const attempts = new Map<string, number>();
  let waiters: (() => void)[] = [];
  const sink: Sink = {
    port: 0, messages, connections: 0, open: 0, peakOpen: 0,
    resetPeak() { sink.peakOpen = sink.open; },
    async waitFor(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > deadline) throw new Error(`sink: ${messages.length} of ${n} messages after ${timeoutMs} ms`);
        await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 50); });
      }
      return messages;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    authOptional: true, disabledCommands: opts.hideStartTls ? ["STARTTLS", "AUTH"] : ["AUTH"], logger: false,
    size: 50 * 1024 * 1024, ...(opts.tls ?? {}),
    onConnect(_s, cb) {
      sink.connections++;
      sink.open++;
      sink.peakOpen = Math.max(sink.peakOpen, sink.open);
      if (opts.maxConnections !== undefined && sink.open > opts.maxConnections) {
        const err = new Error("4.7.0 Too many connections, try again later") as Error & { responseCode: number };
        err.responseCode = 421;
        return cb(err);
      }
      cb();
    },
    onClose() { sink.open--; },
    onRcptTo(address, _session, cb) {
      const n = (attempts.get(address.address) ?? 0) + 1;
      attempts.set(address.address, n);
      const reply = opts.script?.(address.address, n);
      if (!reply) return cb();
      const err = new Error(reply.message) as Error & { responseCode: number };
      err.responseCode = reply.code;
      cb(err);
    },
    onData(stream, session: SMTPServerSession, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const message: SinkMessage = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks), session: { secure: session.secure, hostNameAppearsAs: session.hostNameAppearsAs, remoteAddress: session.remoteAddress }, replied: false };
        messages.push(message);
        const w = waiters; waiters = []; w.forEach((f) => f());
        const reply = () => { message.replied = true; message.repliedAt = performance.timeOrigin + performance.now(); cb(); };
        if (opts.delayMs) setTimeout(reply, opts.delayMs); else reply();
      });
    },
  });
  // A client killed mid-session (the kill -9 test) resets its connection: not the test's failure.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve()));
  sink.port = (server.server.address() as { port: number }).port;
  return sink;
}
