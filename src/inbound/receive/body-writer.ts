// A received message's body on its way into the store: pieces of PIECE_BYTES appended as they fill
// (to every zone the message goes to), so a connection holds at most one piece, never the message.
// The header block is kept aside (up to HEAD_BYTES) for routing on header values.
import type { InboundMessageStore } from "../../core/inbound/model.ts";
import { headerBlock } from "../../core/header-block.ts";

export const PIECE_BYTES = 256 * 1024;
const HEAD_BYTES = 256 * 1024;

export function createBodyWriter(zones: InboundMessageStore[], bodyId: string, now: () => number) {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let headDone = false;

  async function append(piece: Uint8Array) {
    const n = seq++;
    for (const z of zones) await z.appendInboundBody(bodyId, n, piece, now());
  }

  /** Stores whole pieces of what is pending (everything when `all`), keeping the rest. */
  async function flush(all = true) {
    if (!pendingBytes || (!all && pendingBytes < PIECE_BYTES)) return;
    const joined = Buffer.concat(pending, pendingBytes);
    let at = 0;
    // A piece never exceeds PIECE_BYTES, however large the chunks smtp-server hands over.
    for (; joined.length - at >= PIECE_BYTES || (all && at < joined.length); at += PIECE_BYTES) {
      await append(new Uint8Array(joined.subarray(at, Math.min(at + PIECE_BYTES, joined.length))));
    }
    pending = at < joined.length ? [joined.subarray(at)] : [];
    pendingBytes = joined.length - Math.min(at, joined.length);
  }

  function keepHead(chunk: Uint8Array) {
    if (headDone) return;
    const take = chunk.subarray(0, HEAD_BYTES - headBytes);
    head.push(take); headBytes += take.length;
    // The header block ends at the first empty line; a little past it is harmless to headerBlock.
    if (headBytes >= HEAD_BYTES || /\r?\n\r?\n/.test(Buffer.from(take).toString("latin1"))) headDone = true;
  }

  return {
    bodyId,
    async write(chunk: Uint8Array) {
      keepHead(chunk);
      pending.push(chunk); pendingBytes += chunk.length;
      await flush(false);
    },
    flush: () => flush(true),
    /** The message's header fields, unfolded, in order. */
    headers: () => headerBlock(new Uint8Array(Buffer.concat(head))),
    async discard() {
      pending = []; pendingBytes = 0; head = [];
      for (const z of zones) await z.discardInboundBody(bodyId).catch(() => {});
    },
  };
}
