// Turns a mail sent to dmarc@ or tlsrpt@ of a bounce domain into the reports it carries. A report
// mail carries one report file (RFC 7489 §7.2.1.1, RFC 8460 §5.3); a plain body that is itself the
// XML or JSON is accepted too. Never half-reads: a report either parses whole or is refused.
import PostalMime from "postal-mime";
import type { ReceiverReport, ReceiverReportKind } from "../../core/receiver-report.ts";
import { parseDmarcXml } from "./dmarc.ts";
import { parseTlsReportJson } from "./tlsrpt.ts";
import { isReportFile, unpack } from "./unpack.ts";

/** The mailbox (local part) each kind of report comes to, on the bounce domain. */
export const REPORT_LOCAL_PARTS: Record<string, ReceiverReportKind> = { dmarc: "dmarc", tlsrpt: "tls" };

/** The kind of report an address takes, when its local part is one of ours. */
export function reportKindOf(address: string): ReceiverReportKind | null {
  const at = address.lastIndexOf("@");
  return at > 0 ? REPORT_LOCAL_PARTS[address.slice(0, at).toLowerCase()] ?? null : null;
}

export async function readReceiverReport(raw: Uint8Array, kind: ReceiverReportKind): Promise<ReceiverReport> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
  const parts = email.attachments.filter((a) => isReportFile(a, kind));
  const body = kind === "dmarc" ? email.text?.trimStart().startsWith("<") : email.text?.trimStart().startsWith("{");
  const texts: string[] = parts.length ? parts.map((a) => unpack({ name: a.filename ?? "", mimeType: a.mimeType, content: new Uint8Array(a.content as ArrayBuffer) }))
    : body && email.text ? [email.text] : [];
  const first = texts[0];
  if (first === undefined) throw new Error(`no ${kind === "dmarc" ? "DMARC aggregate" : "TLS"} report file in the message`);
  return kind === "dmarc" ? parseDmarcXml(first) : parseTlsReportJson(first);
}
