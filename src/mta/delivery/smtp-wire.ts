// The SMTP client's wire parts: replies read off a socket in order (RFC 5321 §4.2), the message
// body framed for DATA (dot-stuffing, §4.5.2) or BDAT (RFC 3030), and the error a failed step
// throws. Kept apart from the session logic (smtp-client.ts) so each stays small.
import { isAscii } from "node:buffer";

export interface Reply {
  code: number;
  /** Every line with its code, joined with "\n" (the form outcome.ts reads). */
  text: string;
}

export interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  rejectedErrors?: { recipient: string; responseCode?: number; response?: string }[];
  /** Set when the connection was made but its opening (greeting, EHLO, STARTTLS) failed: the two ends' addresses (TLS-RPT failure details). */
  localIp?: string;
  remoteIp?: string;
}

/** A failed opening's error with the connection's two ends (read before `close` ends it), for TLS-RPT failure details. */
export function withEnds(err: unknown, localIp: string, remoteIp: string | undefined, close: () => void): unknown {
  if (err instanceof Error) Object.assign(err, { localIp, remoteIp: (remoteIp ?? "").replace(/^::ffff:/, "") });
  close();
  return err;
}

export function smtpError(code: string, message: string, command: string, reply?: Reply): SmtpError {
  const err = new Error(message) as SmtpError;
  err.code = code;
  err.command = command;
  if (reply) { err.responseCode = reply.code; err.response = reply.text; }
  return err;
}

/** Postfix reads a reply line under its line_length_limit (2048); RFC 5321 §4.5.3.1.5 allows 512 octets. */
const MAX_LINE_CHARS = 2048;
/** Lines kept of one multi-line reply: an EHLO answer has a dozen, a receiver's policy text a few more. */
const MAX_REPLY_LINES = 100;

/**
 * Matches replies to commands in the order they were sent (RFC 2920 §3.1: a pipelining server
 * answers in order). A reply that arrives before anyone waits (the greeting, a 421 before
 * closing) is kept for the next `next()`. When the connection fails every waiter gets the error.
 */
export class ReplyReader {
  private partial = "";
  private lines: string[] = [];
  private ready: Reply[] = [];
  private waiters: { resolve: (r: Reply) => void; reject: (e: SmtpError) => void }[] = [];
  private failure: SmtpError | null = null;

  /** Feeds bytes read from the socket. Only the new bytes are searched for line ends, and what is kept of a reply is
   *  bounded: a receiver's line past MAX_LINE_CHARS is cut, and a reply's lines past MAX_REPLY_LINES are dropped
   *  (the last, which carries the code, is kept), so an MX that never ends a line or a reply costs neither time
   *  nor memory without end. */
  push(chunk: Buffer) {
    for (let at = 0; at < chunk.length;) {
      const lf = chunk.indexOf(0x0a, at);
      const end = lf < 0 ? chunk.length : lf;
      // latin1 keeps every byte one character: a UTF-8 reply text is re-decoded per finished reply.
      if (this.partial.length < MAX_LINE_CHARS) this.partial += chunk.toString("latin1", at, Math.min(end, at + MAX_LINE_CHARS - this.partial.length));
      if (lf < 0) return;
      this.endLine(this.partial.endsWith("\r") ? this.partial.slice(0, -1) : this.partial);
      this.partial = "";
      at = lf + 1;
    }
  }

  private endLine(line: string) {
    // "250-" continues a reply; "250 " or a bare "250" ends it.
    const continues = line[3] === "-";
    if (this.lines.length < MAX_REPLY_LINES || !continues) this.lines.push(line);
    if (continues) return;
    const text = Buffer.from(this.lines.join("\n"), "latin1").toString("utf8");
    this.lines = [];
    this.deliver({ code: Number(line.slice(0, 3)) || 0, text });
  }

  private deliver(reply: Reply) {
    const w = this.waiters.shift();
    if (w) w.resolve(reply); else this.ready.push(reply);
  }

  /** The next reply in order. */
  next(): Promise<Reply> {
    const r = this.ready.shift();
    if (r) return Promise.resolve(r);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** The connection is gone: every waiting and later `next()` fails with `err`. */
  fail(err: SmtpError) {
    if (!this.failure) this.failure = err;
    for (const w of this.waiters.splice(0)) w.reject(this.failure);
  }

  /** Replies received but not yet taken (a pipelining server must not send any unasked). */
  get unread(): number { return this.ready.length; }
}

const DOT = 0x2e;
const LF = 0x0a;

/** RFC 5321 §4.5.2 transparency and the final ".": the DATA body as one buffer, copied only when a line starts with ".". */
export function dataBody(message: Buffer): Buffer {
  const ending = message.length && message[message.length - 1] === LF ? ".\r\n" : "\r\n.\r\n";
  const starts: number[] = [];
  if (message[0] === DOT) starts.push(0);
  for (let i = message.indexOf("\n.", 0, "latin1"); i >= 0; i = message.indexOf("\n.", i + 1, "latin1")) starts.push(i + 1);
  if (!starts.length) return Buffer.concat([message, Buffer.from(ending, "latin1")]);
  const parts: Buffer[] = [];
  let from = 0;
  for (const at of starts) { parts.push(message.subarray(from, at), Buffer.from(".")); from = at; }
  parts.push(message.subarray(from), Buffer.from(ending, "latin1"));
  return Buffer.concat(parts);
}

/** True when `buf` has a byte above 127 (the body needs BODY=8BITMIME, RFC 6152). */
export function hasEightBit(buf: Buffer): boolean {
  // Native scan: a byte loop in JS here was 1 % of the serving thread's time in a delivery profile.
  return !isAscii(buf);
}

/** EHLO keywords (RFC 5321 §4.1.1.1) with their parameters: "SIZE 10240000" → SIZE → "10240000". */
export function parseEhlo(text: string): Map<string, string> {
  const ext = new Map<string, string>();
  for (const line of text.split("\n").slice(1)) {
    const [kw = "", ...params] = line.slice(4).trim().split(/\s+/);
    if (kw) ext.set(kw.toUpperCase(), params.join(" "));
  }
  return ext;
}
