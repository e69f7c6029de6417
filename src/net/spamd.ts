// SpamAssassin's spamd, spoken directly: SPAMC/1.5 over TCP (the protocol spamc uses; see
// spamd/PROTOCOL in the SpamAssassin sources). One REPORT request per message: a request line,
// Content-length, an empty line and the message; the answer is a status line, a
// "Spam: True|False ; score / threshold" header and the report text SendGrid's Inbound Parse posts
// as spam_report. Everything is bounded: the answer's size, and the whole exchange by a timeout.
import { connect } from "node:net";

/** `scoreText` is the score as spamd wrote it ("3.3"), which is what SendGrid posts. */
export interface SpamdVerdict { isSpam: boolean; score: number; scoreText: string; threshold: number; report: string }
export interface SpamdOptions { host: string; port: number; timeoutMs: number }

const MAX_ANSWER = 256 * 1024;

export class SpamdError extends Error {}

/** "127.0.0.1:783", "[::1]:783" or "spamd.internal" (port 783, spamd's own). */
export function parseSpamdAddress(address: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  const port = Number(m?.[2] ?? 783);
  if (!m || !m[1] || !Number.isInteger(port) || port < 1 || port > 65535) throw new SpamdError(`not a host:port: ${address}`);
  return { host: m[1], port };
}

export function parseSpamdAnswer(answer: Buffer): SpamdVerdict {
  const text = answer.toString("utf8");
  const split = text.indexOf("\r\n\r\n");
  const head = (split < 0 ? text : text.slice(0, split)).split("\r\n");
  const status = /^SPAMD\/\d+\.\d+\s+(\d+)\s*(.*)$/.exec(head[0] ?? "");
  if (!status) throw new SpamdError(`not a spamd answer: ${JSON.stringify((head[0] ?? "").slice(0, 80))}`);
  if (status[1] !== "0") throw new SpamdError(`spamd answered ${status[1]} ${status[2]}`);
  const spam = head.map((l) => /^Spam:\s*(True|False|Yes|No)\s*;\s*(-?[\d.]+)\s*\/\s*(-?[\d.]+)/i.exec(l)).find(Boolean);
  if (!spam) throw new SpamdError("spamd answer without a Spam: header");
  return { isSpam: /^(true|yes)$/i.test(spam[1]!), score: Number(spam[2]), scoreText: spam[2]!, threshold: Number(spam[3]),
    report: split < 0 ? "" : text.slice(split + 4) };
}

/** Asks spamd for a REPORT on `raw`; rejects with SpamdError on refusal, timeout or a garbled answer. */
export function spamdReport(raw: Uint8Array, opts: SpamdOptions): Promise<SpamdVerdict> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const socket = connect({ host: opts.host, port: opts.port });
    const finish = (err: Error | null, v?: SpamdVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err instanceof SpamdError ? err : new SpamdError(err.message)); else resolve(v!);
    };
    const timer = setTimeout(() => finish(new SpamdError(`no answer from spamd within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    socket.on("connect", () => {
      socket.write(`REPORT SPAMC/1.5\r\nContent-length: ${raw.length}\r\nUser: postern\r\n\r\n`);
      socket.end(raw);
    });
    socket.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_ANSWER) return finish(new SpamdError("spamd answer too large"));
      chunks.push(c);
    });
    socket.on("end", () => {
      try { finish(null, parseSpamdAnswer(Buffer.concat(chunks))); } catch (e) { finish(e as Error); }
    });
    socket.on("error", (e) => finish(e));
  });
}
