// DATA of mail for receiving domains, streamed: each piece smtp-server hands over goes through the
// line-ending inspection, mailauth and into the store before the next one is read (the stream is
// read with for-await, so a slow store slows the client instead of filling memory). Over the size
// limit the stored pieces are dropped at once and the rest is only read (552 at the end); a
// smuggling sequence or bare line ending drops them too (554). The message is committed, and only
// then answered 250, once DATA has ended.
import type { Readable } from "node:stream";
import { AppError } from "../../core/errors.ts";
import type { Logger } from "../../log.ts";
import { createLineEndingInspector } from "../smuggling.ts";
import type { Delivery, InboundSink } from "./receiver.ts";

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export interface StreamOptions {
  /** Bytes to keep for report mailboxes in the same envelope (postmaster@…); 0: none. */
  reportBytes: number;
  log: Logger;
  /** Aborted when the client's connection closes: smtp-server then never ends the DATA stream. */
  closed: AbortSignal;
}

function mapFailure(e: unknown, log: Logger): Error {
  if (e instanceof AppError && e.code === "forbidden") return smtpError(550, `5.7.1 ${e.message}`);
  if (e instanceof Error && "responseCode" in e) return e;
  log.error("receiving a message failed", { error: (e as Error).message });
  return smtpError(451, "4.3.0 temporary failure, try again");
}

export async function receiveStream(stream: Readable, inbound: { open(d: Delivery): Promise<InboundSink> }, delivery: Delivery,
  opts: StreamOptions): Promise<{ ids: string[]; reportRaw: Buffer | null }> {
  const isTooBig = () => (stream as unknown as { sizeExceeded?: boolean }).sizeExceeded === true;
  const inspector = createLineEndingInspector();
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let failure: Error | null = null;
  let sink: InboundSink | null = null;
  try { sink = await inbound.open(delivery); } catch (e) { failure = mapFailure(e, opts.log); }
  let dropped = false;
  const drop = async () => { if (sink && !dropped) { dropped = true; await sink.abort().catch(() => {}); } };

  // A connection lost mid-DATA: end the read, so what was stored is dropped and nothing is kept.
  const onClose = () => stream.destroy(new Error("connection closed during DATA"));
  if (opts.closed.aborted) onClose(); else opts.closed.addEventListener("abort", onClose, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // Whatever happened, DATA is read to its end so the reply comes at the right moment.
      if (failure) continue;
      if (isTooBig()) { await drop(); continue; }
      inspector.push(chunk);
      if (keptBytes < opts.reportBytes) { const c = chunk.subarray(0, opts.reportBytes - keptBytes); kept.push(c); keptBytes += c.length; }
      try { await sink!.write(chunk); } catch (e) { failure = mapFailure(e, opts.log); await drop(); }
    }
  } catch (e) {
    await drop();
    throw smtpError(451, `4.3.0 ${(e as Error).message}`);
  } finally {
    opts.closed.removeEventListener("abort", onClose);
  }
  if (failure) { await drop(); throw failure; }
  if (isTooBig()) { await drop(); throw smtpError(552, "5.3.4 message too big"); }
  const finding = inspector.end();
  if (finding) { await drop(); throw smtpError(554, `5.5.2 ${finding.reason} refused (RFC 5321 §2.3.8)`); }
  let ids: string[];
  try { ids = await sink!.finish(); } catch (e) { throw mapFailure(e, opts.log); }
  if (!opts.reportBytes) return { ids, reportRaw: null };
  // A cut report ends at its last whole line, so the cut is not taken for a bare CR or LF.
  let raw = Buffer.concat(kept);
  if (keptBytes >= opts.reportBytes) raw = raw.subarray(0, raw.lastIndexOf(10) + 1);
  return { ids, reportRaw: raw };
}
