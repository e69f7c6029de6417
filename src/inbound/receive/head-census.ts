// What a received message's header block must stay within to be given to mailauth (authenticate.ts).
// mailauth 7.1 costs the square of a header block's lines: it joins each line that opens no field
// onto the one above by copying every line gathered for that field so far (160 KB of " \r\n" lines:
// 4.3 s, 640 KB: 82 s). And it hashes the body once for each DKIM-Signature (400 of them with a 4 MB
// body: 2.5 s; a 30 MB message with 2,000: about a minute). RFC 6376 §6.1 lets a verifier limit the
// signatures it tries; past these limits nothing of the message is checked.

export const MAX_HEAD_LINES = 2_000;
export const MAX_SIGNATURES = 10;
/** Enough of a line's start to know a DKIM-Signature field (blanks may precede its colon). */
const PREFIX_CHARS = 64;
const SIGNATURE = /^dkim-signature[ \t]*:/i;

/** Counts a header block's lines and signatures as the message arrives, piece by piece. */
export function createHeadCensus() {
  let lines = 0;
  let signatures = 0;
  let ended = false;
  let start = "";

  return {
    /** Why the header block is past the limits once it is, else null; pieces after its end are not read. */
    push(piece: Uint8Array): string | null {
      for (let at = 0; !ended && at < piece.length;) {
        const lf = piece.indexOf(0x0a, at);
        const end = lf < 0 ? piece.length : lf;
        if (start.length < PREFIX_CHARS) start += Buffer.from(piece.subarray(at, Math.min(end, at + PREFIX_CHARS - start.length))).toString("latin1");
        if (lf < 0) break;
        // An empty line (LF or CRLF alone) ends the header block, as mailauth reads it.
        if (start === "" || start === "\r") ended = true;
        else {
          lines++;
          if (SIGNATURE.test(start)) signatures++;
          if (lines > MAX_HEAD_LINES) return `a header block of more than ${MAX_HEAD_LINES} lines`;
          if (signatures > MAX_SIGNATURES) return `more than ${MAX_SIGNATURES} DKIM signatures`;
        }
        start = "";
        at = lf + 1;
      }
      return null;
    },
  };
}
