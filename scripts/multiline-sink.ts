// A bare SMTP sink for scripts/real-mta-dsns.ts's MULTILINE mode: it refuses a recipient with a reply of several
// lines, as Gmail, Yahoo and GMX send theirs ("550-5.1.1 ...", ..., "550 5.1.1 ..."), which smtp-server's sink
// (one line per reply) cannot. Every other command is accepted; messages are kept whole.
import { createServer, type Socket } from "node:net";

export interface MultilineSink {
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

export async function startMultilineSink(refuse: (rcpt: string) => { code: number; message: string } | null): Promise<MultilineSink> {
  const messages: { to: string[]; raw: Buffer }[] = [];
  const server = createServer((socket) => serve(socket, refuse, messages));
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

function serve(socket: Socket, refuse: (rcpt: string) => { code: number; message: string } | null, messages: { to: string[]; raw: Buffer }[]) {
  let buffered = "", inData = false, to: string[] = [];
  const say = (line: string) => socket.write(`${line}\r\n`);
  say("220 sink.test ESMTP");
  socket.on("error", () => {});
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    for (;;) {
      if (inData) {
        const end = buffered.indexOf("\r\n.\r\n");
        if (end < 0) return;
        messages.push({ to, raw: Buffer.from(`${buffered.slice(0, end).replace(/\r\n\.\./g, "\r\n.")}\r\n`, "latin1") });
        buffered = buffered.slice(end + 5);
        inData = false;
        to = [];
        say("250 2.0.0 ok");
        continue;
      }
      const eol = buffered.indexOf("\r\n");
      if (eol < 0) return;
      const line = buffered.slice(0, eol);
      buffered = buffered.slice(eol + 2);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO") ["250-sink.test", "250-PIPELINING", "250 8BITMIME"].forEach(say);
      else if (verb === "RCPT") {
        const rcpt = /<([^>]*)>/.exec(line)?.[1] ?? "";
        const refusal = refuse(rcpt);
        if (refusal) replyLines(refusal.code, refusal.message).forEach(say);
        else { to.push(rcpt); say("250 2.1.5 ok"); }
      } else if (verb === "DATA") to.length > 0 ? (inData = true, say("354 go ahead")) : say("503 5.5.1 no valid recipients");
      else if (verb === "QUIT") { say("221 2.0.0 bye"); socket.end(); }
      else if (verb === "RSET") { to = []; say("250 2.0.0 ok"); }
      else say("250 2.0.0 ok");
    }
  });
}
