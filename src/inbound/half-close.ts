// A client may half-close the connection (a TCP FIN, shutdown(SHUT_WR)) while it still waits for
// replies: Exim (4.96 seen) pipelines QUIT after the final dot when it has no further message
// for the host and shuts its side of the socket. RFC 5321 §4.1.1.10 has the receiver answer QUIT
// with 221, and the reply to the end of DATA is owed before that. Two things stood in the way:
// - a socket that is not half-open ends our side too as soon as the client's FIN is read, before the
//   report handler has decided (allowHalfOpen keeps it writable);
// - smtp-server writes a reply only while `socket.readyState === "open"`, and a half-closed socket
//   reads "writeOnly": the reply was dropped without a word, so the client saw the connection close
//   "in response to end of data" and retried a message we had already taken.
// This keeps such a socket answerable (writable means open to smtp-server) and, once the client's
// last command has been answered, ends our side too: smtp-server does after QUIT, and a client that
// leaves without QUIT (or a probe that connects and goes) is not kept until the idle timeout.
import type { Socket } from "node:net";
import type { Writable } from "node:stream";

/** Makes `socket` (plain, or the TLS socket after STARTTLS) keep answering after the client's FIN. */
export function answerAfterHalfClose(socket: Socket): void {
  socket.allowHalfOpen = true;
  Object.defineProperty(socket, "readyState", {
    configurable: true,
    get: () => (socket.destroyed ? "closed" : socket.writable ? "open" : "readOnly"),
  });
  socket.once("end", () => endWhenAnswered(socket));
}

/**
 * The client's FIN ends the command parser smtp-server pipes the socket into; the parser finishes
 * once every command it was given has been handled, and a handled command has had its reply (a
 * message's data waits for the reply to its end of DATA). No parser (smtp-server let go of it after
 * QUIT, or STARTTLS moved the session to the TLS socket): nothing of ours to end.
 */
function endWhenAnswered(socket: Socket) {
  const parser = (socket as unknown as { _readableState?: { pipes?: Writable[] } })._readableState?.pipes?.[0];
  if (!parser) return;
  const end = () => { if (!socket.destroyed && socket.writable) socket.end(); };
  if (parser.writableFinished) end();
  else parser.once("finish", () => setImmediate(end));
}
