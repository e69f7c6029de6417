// A received message as every inbound format reads it: the envelope and authentication results
// recorded at SMTP time, and the MIME parse (postal-mime) done once per post. Malformed MIME never
// throws here: the raw message is still posted, with a parse note.
import PostalMime from "postal-mime";
import type { Address, Email } from "postal-mime";
import { htmlToText } from "../../core/html-text.ts";
import { headerBlock } from "../../core/header-block.ts";

export type { InboundAuth, ReceivedEnvelope } from "../../core/inbound/model.ts";

export interface ParsedMail {
  headerLines: [string, string][];
  header(name: string): string[];
  from: string;
  to: string;
  cc: string;
  subject: string;
  text: string;
  html: string;
  hasText: boolean;
  attachments: { filename: string; contentType: string; contentId: string | null; data: Uint8Array }[];
  parseNote: string | null;
}

const fmt = (list: Address[] | undefined) => (list ?? []).flatMap((a) => (a.group ? a.group : [a]))
  .map((m) => (m.name ? `${m.name} <${m.address}>` : m.address ?? "")).join(", ");

export async function parseReceived(raw: Uint8Array): Promise<ParsedMail> {
  const headerLines = headerBlock(raw);
  const header = (name: string) => headerLines.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
  let email: Email | null = null;
  let parseNote: string | null = null;
  try {
    email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer", maxNestingDepth: 50 });
  } catch (e) {
    parseNote = `MIME parse failed: ${(e as Error).message}`.slice(0, 300);
  }
  const html = email?.html ?? "";
  const hasText = typeof email?.text === "string";
  return {
    headerLines, header,
    from: email?.from ? fmt([email.from]) : header("from")[0] ?? "",
    to: email ? fmt(email.to) : header("to")[0] ?? "",
    cc: email ? fmt(email.cc) : header("cc")[0] ?? "",
    subject: email?.subject ?? header("subject")[0] ?? "",
    text: hasText ? email!.text! : htmlToText(html),
    html, hasText,
    attachments: (email?.attachments ?? []).map((a, i) => ({
      filename: a.filename ?? `attachment-${i + 1}`, contentType: a.mimeType,
      contentId: a.contentId ? a.contentId.replace(/^<|>$/g, "") : null,
      data: typeof a.content === "string" ? new TextEncoder().encode(a.content) : new Uint8Array(a.content as ArrayBuffer),
    })),
    parseNote,
  };
}
