// The sentence that says why, in a notice that gives no reply code for a recipient: the words around where it is
// named, the notice's opening, or a reason block that comes before the recipients (Post.Office).
import type { Diagnostic } from "./report-fields.ts";

/** A leading banner that is never a reason: "THIS IS AN AUTOMATED MESSAGE - PLEASE DO NOT REPLY ...",
 *  "This is an automatically generated message". Only a short first paragraph that states no failure. */
const BANNER_RE = /^\W*(this is an? )?(automated|automatic(ally generated)?|auto-?generated|system[- ]generated) (message|notification|e-?mail|reply|response)\b|^\W*(please )?do not reply\b/i;
const FAILURE_WORDS_RE = /deliver|invalid|unknown|not exist|rejected|refused|blocked|full|quota|failed|error/i;
/** Post.Office: "Each of the following recipients was rejected ...", then "Recipient: <x>" and "Reason: ..." below it:
 *  not itself a reason. */
const EACH_RECIPIENT_RE = /^each of the following recipients/i;

/** Post.Office's reason block, between "due to the following reason:" and its list of recipients (bounded). */
export function reasonFirst(notice: string): Diagnostic | undefined {
  const start = /undeliverable due to the following reason:/i.exec(notice.slice(0, 2000));
  if (!start) return undefined;
  const rest = notice.slice(start.index + start[0].length, start.index + start[0].length + 1500);
  const text = rest.split(/the following recipients? did not receive/i)[0]!.replace(/\s+/g, " ").trim();
  if (EACH_RECIPIENT_RE.test(text)) return undefined;
  return /[a-z]{3}/i.test(text) ? { type: "text", text } : undefined;
}

/** "cannot be delivered due to the following error:" (FTGate, Mycom's and other sites' own notices): the paragraph
 *  after it is the reason, where nothing nearer the recipient gave one. */
const REASON_MARKER_RE = /(?:undeliverable|(?:can ?not|could not|couldn't) be delivered|was not delivered) (?:due to|because of) the following (?:reason|error|problem)s?:?/i;

export function reasonAfterMarker(notice: string): Diagnostic | undefined {
  const marker = REASON_MARKER_RE.exec(notice.slice(0, 4000));
  if (!marker) return undefined;
  const rest = notice.slice(marker.index + marker[0].length, marker.index + marker[0].length + 1500);
  const [first = "", second = ""] = rest.split(/\n[ \t]*\n/).map((p) => p.trim()).filter(Boolean);
  const paragraph = EACH_RECIPIENT_RE.test(first) ? second : first;
  const text = paragraph.replace(/\s+/g, " ").trim().slice(0, 500);
  return /[a-z]{3}/i.test(text) ? { type: "text", text } : undefined;
}

/** The notice's opening as a text diagnostic, after a banner paragraph that only says it is automated: eight lines, as
 *  a notice may greet, name the address and only then say why (a virus scanner's "Your message was infected"). */
export function openingSentence(notice: string): Diagnostic | undefined {
  const head = notice.slice(0, 2000);
  const paragraph = /^\s*\S[^]*?(?:\n[ \t]*\n|$)/.exec(head)?.[0] ?? "";
  const isBanner = BANNER_RE.test(paragraph) && !FAILURE_WORDS_RE.test(paragraph) && paragraph.trim().split("\n").length <= 3;
  return sentenceAfter(notice, isBanner ? paragraph.length : 0, 8);
}

/** Up to `maxLines` non-empty lines of the notice from `at` on (bounded), as a text diagnostic (no reply code). */
export function sentenceAfter(notice: string, at: number, maxLines = 4): Diagnostic | undefined {
  const lines = notice.slice(at, at + 4000).split("\n").map((l) => l.trim()).filter(Boolean).slice(0, maxLines);
  const text = lines.join(" ").replace(/^[>:,.\s]+/, "").replace(/\s+/g, " ").slice(0, 500);
  return /[a-z]{3}/i.test(text) ? { type: "text", text } : undefined;
}

/** The returned message's own fields listed under the recipient ("Envelope Recipient: x" then "Date: 12/25/15",
 *  "Subject: ..."): they say nothing of why, so the notice's other sentences are read instead. */
const MESSAGE_FIELD_RE = /^(date|time|subject|sent|from|to|cc|message-id)\s*:/i;

/** The sentence after a mention, preceded by the line before it when that line is its heading
 *  (Lotus Notes: "User not listed in public Name & Address Book" above the address). */
export function sentenceAround(notice: string, at: number, length: number): Diagnostic | undefined {
  const next = notice.slice(at + length, at + length + 400).split("\n").map((l) => l.trim()).find(Boolean) ?? "";
  const after = MESSAGE_FIELD_RE.test(next) ? undefined : sentenceAfter(notice, at + length);
  // The line break before the mention when only spaces stand between them (read back over those alone, not a long line).
  let start = at;
  while (start > 0 && notice[start - 1] !== "\n" && /\s/.test(notice[start - 1]!)) start--;
  const lineStart = notice[start - 1] === "\n" ? start - 1 : -1;
  // The nearest non-empty line above, looked for in a bounded window (linear in hostile text).
  const window = notice.slice(Math.max(0, lineStart - 400), Math.max(lineStart, 0));
  const before = window.split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? "";
  const heading = lineStart > 0 && /^[A-Za-z][^:]{8,120}$/.test(before) && !/-{3,}/.test(before) ? before : "";
  // Words that lead up to the address on its own line, "<reason> - <address>" or "<reason>: <address>" (RFC 3464's
  // example of a 1994 gateway: "Invalid address - nair_s"; "Unknown user: x", "No such user - x").
  const lineHead = notice.slice(Math.max(0, at - 200), at);
  const leading = LEAD_RE.exec(lineHead.slice(lineHead.lastIndexOf("\n") + 1))?.[1] ?? "";
  // Only words that state a failure: a field's name ("Recipient: x", "Envelope Recipient: x") says nothing.
  const lead = FAILURE_WORDS_RE.test(leading) || /no such|not found/i.test(leading) ? leading : "";
  if (!heading && !lead) return after;
  return { type: "text", text: `${heading} ${lead} ${after?.text ?? ""}`.replace(/\s+/g, " ").trim().slice(0, 500) };
}

/** A line's words before the address it names, ending in a dash or a colon. */
const LEAD_RE = /^\s*([A-Za-z][A-Za-z' ]{2,80}?)\s*(?:-|:)\s*<?$/;
