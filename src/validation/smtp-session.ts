// A minimal SMTP client connection for probing: connect, read multi-line replies, send one
// command at a time (no pipelining, RFC 5321 §4.1). It knows nothing about what a probe asks.
import { connect, type Socket } from "node:net";
import type { ProbeKind } from "./result.ts";

export const MAX_REPLY_LINES = 100;
export const MAX_REPLY_BYTES = 64 * 1024;

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code ("5.1.1") when the first line carries one. */
  enhancedCode?: string;
  lines: string[];
}

/** A failure that ends the conversation with this host; `kind` is what the probe reports. */
export class SmtpSessionError extends Error {
  constructor(readonly kind: Extract<ProbeKind, "no_connect" | "timeout" | "invalid_smtp">, message: string) {
    super(message);
    this.name = "SmtpSessionError";
  }
}

export interface SmtpSession {
  /** The next complete reply (the 220 greeting first). */
  read(): Promise<SmtpReply>;
  /** Writes `line` + CRLF and reads the reply. */
  command(line: string): Promise<SmtpReply>;
  close(): void;
}

export interface SmtpSessionOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** Deadline for each reply. */
  replyTimeoutMs: number;
}

// RFC 5321 §4.2: "250-..." continues, "250 ..." ends; RFC 3463 code after the separator.
const REPLY_LINE_RE = /^([2-5][0-9]{2})([ -]|$)(.*)$/;
const ENHANCED_RE = /^([245]\.[0-9]{1,3}\.[0-9]{1,3})\b/;

/** Opens a TCP connection to an SMTP server; rejects with SmtpSessionError("no_connect"). */
export function openSmtpSession(options: SmtpSessionOptions): Promise<SmtpSession> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: options.host, port: options.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpSessionError("no_connect", `connect to ${options.host} timed out`));
    }, options.connectTimeoutMs);
    socket.once("error", (e) => {
      clearTimeout(timer);
      reject(new SmtpSessionError("no_connect", `connect to ${options.host}: ${e.message}`));
    });
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(createSession(socket, options.replyTimeoutMs));
    });
  });
}

/** Turns received text into complete replies; throws SmtpSessionError("invalid_smtp") on garbage. */
export function createReplyParser(): (chunk: string) => SmtpReply[] {
  let buffer = "";
  let lines: string[] = [];
  return (chunk) => {
    buffer += chunk;
    if (buffer.length > MAX_REPLY_BYTES) throw new SmtpSessionError("invalid_smtp", "reply too large");
    const replies: SmtpReply[] = [];
    let eol: number;
    while ((eol = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, eol).replace(/\r$/, "");
      buffer = buffer.slice(eol + 1);
      const m = REPLY_LINE_RE.exec(line);
      if (!m) throw new SmtpSessionError("invalid_smtp", `unexpected line: ${line.slice(0, 80)}`);
      lines.push(m[3] ?? "");
      if (lines.length > MAX_REPLY_LINES) throw new SmtpSessionError("invalid_smtp", "reply too long");
      if (m[2] === "-") continue;
      const enhancedCode = ENHANCED_RE.exec(lines[0] ?? "")?.[1];
      replies.push({ code: Number(m[1]), lines, ...(enhancedCode ? { enhancedCode } : {}) });
      lines = [];
    }
    return replies;
  };
}

function createSession(socket: Socket, replyTimeoutMs: number): SmtpSession {
  const parse = createReplyParser();
  const replies: SmtpReply[] = [];
  let failure: SmtpSessionError | undefined;
  let waiter: { resolve: (r: SmtpReply) => void; reject: (e: SmtpSessionError) => void } | undefined;

  const settle = () => {
    if (!waiter) return;
    const reply = replies.shift();
    if (reply) waiter.resolve(reply);
    else if (failure) waiter.reject(failure);
    else return;
    waiter = undefined;
  };
  const fail = (e: SmtpSessionError) => {
    failure ??= e;
    socket.destroy();
    settle();
  };

  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    try {
      replies.push(...parse(chunk));
    } catch (e) {
      return fail(e as SmtpSessionError);
    }
    settle();
  });
  socket.on("error", (e) => fail(new SmtpSessionError("invalid_smtp", `connection error: ${e.message}`)));
  socket.on("close", () => fail(new SmtpSessionError("invalid_smtp", "connection closed by the server")));

  const read = () =>
    new Promise<SmtpReply>((resolve, reject) => {
      const timer = setTimeout(() => fail(new SmtpSessionError("timeout", "no reply in time")), replyTimeoutMs);
      waiter = {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      settle();
    });

  return {
    read,
    command(line) {
      // Bare CR or LF in a command would let a caller smuggle a second command (RFC 5321 §2.3.8).
      if (/[\r\n]/.test(line)) return Promise.reject(new SmtpSessionError("invalid_smtp", "command holds CR/LF"));
      if (!failure) socket.write(`${line}\r\n`);
      return read();
    },
    close() {
      if (!failure) socket.end();
      failure ??= new SmtpSessionError("invalid_smtp", "session closed");
    },
  };
}
