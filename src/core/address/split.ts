// Splits an address list as people write it into one chunk per mailbox, keeping RFC 5322 groups
// together. It only finds boundaries; each chunk is then parsed by email-addresses (address.ts),
// because that parser rejects a whole list when a single member is bad.

export interface ListChunk {
  /** One mailbox as written, trimmed. */
  text: string;
  /** The display name of the RFC 5322 group the mailbox sits in, if any. */
  group?: string;
}

interface RawChunk {
  text: string;
  group?: string;
  /** The separator that ended the chunk: "," ";" or "" at the end of the input. */
  endedBy: string;
}

interface ScanState {
  isInQuote: boolean;
  isInAngle: boolean;
  isInLiteral: boolean;
  commentDepth: number;
}

const isBalanced = (s: ScanState) => !s.isInQuote && !s.isInAngle && !s.isInLiteral && s.commentDepth === 0;

/** Updates the nesting state for character `c`; returns true when `c` was consumed as structure. */
function advance(s: ScanState, c: string): boolean {
  if (s.isInQuote) {
    if (c === '"') s.isInQuote = false;
    return true;
  }
  if (s.commentDepth > 0) {
    if (c === "(") s.commentDepth++;
    else if (c === ")") s.commentDepth--;
    return true;
  }
  if (s.isInLiteral) {
    if (c === "]") s.isInLiteral = false;
    return true;
  }
  if (c === '"') s.isInQuote = true;
  else if (c === "(") s.commentDepth = 1;
  else if (c === "[") s.isInLiteral = true;
  else if (c === "<") s.isInAngle = true;
  else if (c === ">") s.isInAngle = false;
  else return false;
  return true;
}

/** Cuts `input` at top-level `,` and `;`, treating `name: a, b;` as a group. */
function scan(input: string): { chunks: RawChunk[]; tailStart: number; isTailBalanced: boolean } {
  const chunks: RawChunk[] = [];
  const state: ScanState = { isInQuote: false, isInAngle: false, isInLiteral: false, commentDepth: 0 };
  let group: string | undefined;
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (c === "\\" && (state.isInQuote || state.commentDepth > 0)) {
      i++; // quoted-pair: RFC 5322 §3.2.1, the next character is literal
      continue;
    }
    if (advance(state, c) || state.isInAngle) continue;
    if (c === ":" && group === undefined) {
      group = input.slice(start, i).trim();
      start = i + 1;
    } else if (c === "," || c === ";") {
      chunks.push({ text: input.slice(start, i), group, endedBy: c });
      if (c === ";") group = undefined;
      start = i + 1;
    }
  }
  chunks.push({ text: input.slice(start), group, endedBy: "" });
  return { chunks, tailStart: start, isTailBalanced: isBalanced(state) };
}

/**
 * Outlook writes "Doe, John <john@x.com>" unquoted; a chunk with neither "@" nor "<" followed by
 * a chunk with an angle address is taken as the first half of such a name. The price is that
 * "bogus, Bob <bob@x.com>" yields the name "bogus, Bob" instead of one unparseable entry.
 */
function mergeSplitNames(chunks: RawChunk[]): RawChunk[] {
  const out: RawChunk[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const cur = chunks[i] as RawChunk;
    const next = chunks[i + 1];
    const isNameHalf = cur.endedBy === "," && cur.text.trim() !== "" && !/[@<"]/.test(cur.text);
    if (isNameHalf && next && next.group === cur.group && /^[^@]*</.test(next.text)) {
      out.push({ ...next, text: `${cur.text.trim()},${next.text}` });
      i++;
    } else {
      out.push(cur);
    }
  }
  return out;
}

/** Splits an address list into trimmed, non-empty chunks; never throws. */
export function splitAddressList(input: string): ListChunk[] {
  const { chunks, tailStart, isTailBalanced } = scan(input);
  if (!isTailBalanced) {
    // An unclosed quote, comment or bracket swallowed the rest: recover what follows it naively
    // so one stray `"` does not hide every later address.
    chunks.pop();
    for (const text of input.slice(tailStart).split(/[,;]/)) chunks.push({ text, endedBy: "," });
  }
  return mergeSplitNames(chunks)
    .map((c) => ({ text: c.text.trim(), group: c.group }))
    .filter((c) => c.text !== "")
    .map((c) => (c.group === undefined ? { text: c.text } : { text: c.text, group: c.group }));
}
