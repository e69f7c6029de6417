// Inspects received DATA bytes for bare CR / bare LF line endings and SMTP smuggling
// end-of-data look-alikes (RFC 5321 §2.3.8, §4.1.1.4; CVE-2023-51764/-51765/-51766). It only
// reports: inbound/smtp-server.ts decides whether to reject, and with which reply.
//
// What smtp-server 3.21.6 already does (node_modules/smtp-server/dist/esm/smtp-stream.js):
// - ends DATA only on the exact <CR><LF>.<CR><LF> (or ".<CR><LF>" as the very first line), so
//   it is not itself fooled by <LF>.<LF>, <LF>.<CR><LF> or <CR>.<CR>;
// - guards the start-of-DATA terminator against TCP segmentation tricks;
// - advertises no CHUNKING/BDAT (RFC 3030), so the length-delimited path does not exist.
// What it does not do:
// - it passes bare LF and bare CR through into the message stream unchanged, so a message
//   carrying "<LF>.<LF>" reaches onData intact; relayed or stored as is, a lenient next hop
//   could end the message there and read the rest as commands;
// - it un-stuffs a dot after any LF, bare or not ("<LF>.." becomes "<LF>.");
// - in command mode it splits lines on /\r?\n/, accepting bare-LF-terminated commands;
// - it advertises PIPELINING unless hidePIPELINING is set, and has no option to reject or
//   normalise bare line endings (Postfix's smtpd_forbid_bare_newline).
// Outbound, nodemailer's DataStream rewrites bare CR/LF to CRLF and dot-stuffs, so our own
// relaying never forwards a bare LF; DKIM must therefore sign the normalised form.

/** What was found: a smuggling sequence is worse than a plain bare line ending. */
export type LineEndingProblem = "smuggling" | "bare-lf" | "bare-cr";

export interface LineEndingFinding {
  problem: LineEndingProblem;
  /** Byte offset of the offending LF / CR, or of the dot of a smuggling sequence. */
  offset: number;
  /** One line for logs and SMTP replies, e.g. "SMTP smuggling sequence <LF>.<CR><LF>". */
  reason: string;
}

const CR = 0x0d;
const LF = 0x0a;
const DOT = 0x2e;

/**
 * Returns the most serious line-ending problem in DATA (a smuggling sequence anywhere wins,
 * else the first bare LF or bare CR), or null when every line ends in CRLF.
 * Works on un-stuffed data from smtp-server as well as on raw dot-stuffed bytes.
 */
export function inspectDataLineEndings(data: Uint8Array, from = 0, to = data.length): LineEndingFinding | null {
  let firstBare: LineEndingFinding | null = null;
  for (let i = from; i < to; i++) {
    const byte = data[i];
    if (byte === DOT && isLineStart(data, i)) {
      const sequence = describeDotLine(data, i);
      if (sequence) return { problem: "smuggling", offset: i, reason: `SMTP smuggling sequence ${sequence}` };
    }
    if (firstBare) continue;
    // RFC 5321 §2.3.8: CR and LF must only occur together as CRLF.
    if (byte === LF && data[i - 1] !== CR) firstBare = { problem: "bare-lf", offset: i, reason: "bare <LF> line ending" };
    if (byte === CR && data[i + 1] !== LF) firstBare = { problem: "bare-cr", offset: i, reason: "bare <CR> in message" };
  }
  return firstBare;
}

/** A dot right after any line break, or at the very start of DATA (which follows CRLF). */
function isLineStart(data: Uint8Array, i: number): boolean {
  return i === 0 || data[i - 1] === LF || data[i - 1] === CR;
}

/**
 * A line holding only "." whose line breaks are not both CRLF is what lenient servers take
 * for end of data (RFC 5321 §4.1.1.4 allows only <CRLF>.<CRLF>). Returns the sequence, e.g.
 * "<LF>.<LF>", or null for a harmless "." line ("<CR><LF>.<CR><LF>" after un-stuffing) or a
 * dot that starts a longer line.
 */
function describeDotLine(data: Uint8Array, i: number): string | null {
  const next = data[i + 1];
  if (next !== CR && next !== LF) return null;
  const before = i === 0 ? "<CR><LF>" : breakBefore(data, i);
  const after = next === LF ? "<LF>" : data[i + 2] === LF ? "<CR><LF>" : "<CR>";
  if (before === "<CR><LF>" && after === "<CR><LF>") return null;
  return `${before}.${after}`;
}

function breakBefore(data: Uint8Array, i: number): string {
  if (data[i - 1] === CR) return "<CR>";
  return data[i - 2] === CR ? "<CR><LF>" : "<LF>";
}

/**
 * The same inspection over DATA as it streams in: each byte is looked at once, with the two bytes
 * before and after it in view (all a finding needs), so pieces can be dropped as they pass.
 */
export function createLineEndingInspector() {
  const CONTEXT = 2;
  let window = new Uint8Array(0);
  let examined = 0; // bytes of `window` already looked at
  let offset = 0; // stream offset of window[0]
  let smuggling: LineEndingFinding | null = null;
  let firstBare: LineEndingFinding | null = null;
  const look = (to: number) => {
    if (smuggling || to <= examined) return;
    const f = inspectDataLineEndings(window, examined, to);
    if (f?.problem === "smuggling") smuggling = { ...f, offset: f.offset + offset };
    else if (f && !firstBare) firstBare = { ...f, offset: f.offset + offset };
    examined = to;
  };
  return {
    push(chunk: Uint8Array) {
      // A smuggling sequence is the answer whatever follows: the rest is not kept (each piece would copy all before it).
      if (smuggling) return;
      const next = new Uint8Array(window.length + chunk.length);
      next.set(window); next.set(chunk, window.length);
      window = next;
      look(window.length - CONTEXT);
      // Keep what is still to be looked at plus the bytes before it.
      const keep = Math.max(0, examined - CONTEXT);
      window = window.slice(keep); examined -= keep; offset += keep;
    },
    /** The finding over everything pushed (a smuggling sequence wins), once DATA has ended. */
    end(): LineEndingFinding | null {
      look(window.length);
      return smuggling ?? firstBare;
    },
  };
}
