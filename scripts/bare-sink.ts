// A bare SMTP sink for scripts/real-mta-dsns.ts's MULTILINE and STAGE modes: it refuses a recipient with a reply of
// several lines, as Gmail, Yahoo and GMX send theirs ("550-5.1.1 ...", ..., "550 5.1.1 ..."), which smtp-server's sink
// (one line per reply) cannot, and at the command the receiver chose: RCPT TO, or the end of DATA (a refusal of the
// message, as content filters and Yahoo's "dd" make), or MAIL FROM (a refusal of the sender). Messages are kept whole.
import { createServer, type Socket } from "node:net";

export interface BareSink {
  port: number;
  waitFor(n: number, timeoutMs: number): Promise<{ to: string[]; raw: Buffer }[]>;
  close(): Promise<void>;
}

/** A reply cut at about 64 characters of words, every line with its code and status, "-" on all but the last. */
export function replyLines(code: number, message: string): string[] {
  const status = /^([245]\.\d{1,3}\.\d{1,3})\s+/.exec(message);
  const chunks: string[] = [];
  for (const word of (status ? message.slice(status[0].length) : message).split(" ")) {
    const last = chunks.length - 1;
    if (last >= 0 && `${chunks[last]} ${word}`.length <= 64) chunks[last] += ` ${word}`;
    else chunks.push(word);
  }
  return chunks.map((chunk, i) => `${code}${i < chunks.length - 1 ? "-" : " "}${status ? `${status[1]} ` : ""}${chunk}`);
}

export type Stage = "mail" | "rcpt" | "data";
/** The refusal for a recipient, or for a sender at MAIL FROM ("sender7@..." names recipient 7's reply). */
export type Refusal = (address: string, stage: Stage) => { code: number; message: string } | null;

export async function startBareSink(refuse: Refusal, lines = true): Promise<BareSink> {
  const messages: { to: string[]; raw: Buffer }[] = [];
  const server = createServer((socket) => serve(socket, refuse, messages, lines ? replyLines : (code, message) => [`${code} ${message}`]));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    async waitFor(n, timeoutMs) {
      for (const deadline = Date.now() + timeoutMs; messages.length < n; await Bun.sleep(200)) {
        if (Date.now() > deadline) throw new Error(`sink: ${messages.length} of ${n} messages after ${timeoutMs} ms`);
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function serve(socket: Socket, refuse: Refusal, messages: { to: string[]; raw: Buffer }[], reply: (code: number, message: string) => string[]) {
  let buffered = "", inData = false, to: string[] = [], sender = false;
  const say = (line: string) => socket.write(`${line}\r\n`);
  const refused = (address: string, stage: Stage) => {
    const refusal = refuse(address, stage);
    if (refusal) reply(refusal.code, refusal.message).forEach(say);
    return refusal !== null;
  };
  say("220 sink.test ESMTP");
  socket.on("error", () => {});
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    for (;;) {
      if (inData) {
        const end = buffered.indexOf("\r\n.\r\n");
        if (end < 0) return;
        const message = { to, raw: Buffer.from(`${buffered.slice(0, end).replace(/\r\n\.\./g, "\r\n.")}\r\n`, "latin1") };
        buffered = buffered.slice(end + 5);
        inData = false;
        if (!refused(to[0] ?? "", "data")) { messages.push(message); say("250 2.0.0 ok"); }
        to = [];
        sender = false;
        continue;
      }
      const eol = buffered.indexOf("\r\n");
      if (eol < 0) return;
      const line = buffered.slice(0, eol);
      buffered = buffered.slice(eol + 2);
      const verb = line.slice(0, 4).toUpperCase();
      const address = /<([^>]*)>/.exec(line)?.[1] ?? "";
      if (verb === "EHLO") ["250-sink.test", "250-PIPELINING", "250 8BITMIME"].forEach(say);
      else if (verb === "MAIL") { sender = !refused(address, "mail"); if (sender) say("250 2.1.0 ok"); }
      // After a refused MAIL FROM there is no transaction: a pipelining client's RCPT and DATA get 503.
      else if (verb === "RCPT") { if (!sender) say("503 5.5.1 need MAIL first"); else if (!refused(address, "rcpt")) { to.push(address); say("250 2.1.5 ok"); } }
      else if (verb === "DATA") to.length > 0 ? (inData = true, say("354 go ahead")) : say("503 5.5.1 no valid recipients");
      else if (verb === "QUIT") { say("221 2.0.0 bye"); socket.end(); }
      else if (verb === "RSET") { to = []; sender = false; say("250 2.0.0 ok"); }
      else say("250 2.0.0 ok");
    }
  });
}
