// The doctor's outbound port-25 probe: a TCP connect to host:port and the server's first reply.
// Three outcomes, because they call for different fixes: a greeting came (port 25 is open), the
// connection was refused or reset (something answers "no"), or nothing came before the timeout
// (a provider's firewall usually drops the packets: unknown, never "open").
import { connect } from "node:net";

export type GreetingOutcome =
  | { kind: "greeted"; code: number; line: string; ms: number }
  | { kind: "refused"; error: string }
  | { kind: "silent"; stage: "connect" | "greeting"; ms: number };

/** RFC 5321 §4.5.3.1.5 allows 512 octets a reply line; a multi-line greeting of a few lines fits. */
const MAX_GREETING_CHARS = 4096;

/** Connects and reads the first reply line; closes the connection with QUIT after a greeting. */
export function probeGreeting(host: string, port: number, timeoutMs: number, clock: () => number): Promise<GreetingOutcome> {
  return new Promise((resolve) => {
    const started = clock();
    let connected = false;
    let buf = "";
    let settled = false;
    const sock = connect({ host, port });
    const done = (o: GreetingOutcome) => {
      if (settled) return; // an error is followed by a close: the first outcome stands
      settled = true;
      clearTimeout(timer);
      sock.removeAllListeners("data");
      if (o.kind === "greeted") sock.end("QUIT\r\n"); else sock.destroy();
      sock.on("error", () => {});
      resolve(o);
    };
    const timer = setTimeout(() => done({ kind: "silent", stage: connected ? "greeting" : "connect", ms: clock() - started }), timeoutMs);
    sock.on("connect", () => { connected = true; });
    sock.on("error", (e) => done({ kind: "refused", error: (e as NodeJS.ErrnoException).code ?? e.message }));
    sock.on("close", () => done({ kind: "refused", error: connected ? "closed before a greeting" : "closed" }));
    sock.on("data", (chunk: Buffer) => {
      buf += chunk.toString("latin1", 0, Math.max(0, MAX_GREETING_CHARS - buf.length));
      // A multi-line greeting ("220-…") ends with the line whose code is followed by a space.
      const last = buf.split("\r\n").find((l) => /^\d{3}( |$)/.test(l));
      if (last) done({ kind: "greeted", code: Number(last.slice(0, 3)), line: last.slice(0, 200), ms: clock() - started });
      // A server that talks on without ending its greeting still answered: port 25 is open. What it says past the
      // first few KB is neither kept nor read again.
      else if (buf.length >= MAX_GREETING_CHARS) done({ kind: "greeted", code: Number(buf.slice(0, 3)) || 0, line: buf.split("\r\n")[0]!.slice(0, 200), ms: clock() - started });
    });
  });
}
