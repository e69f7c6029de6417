// The parts of a messages form shared by /messages and /messages.mime: addresses, o: options
// (tags, test mode, tracking, delivery time), h: headers, v: user variables and file parts.
import type { Address, Attachment, TrackingFlags } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";
import { parseAddress, parseAddressList } from "../../core/address/address.ts";
import { parseYesNo, type Form } from "./form.ts";
import { requireDate } from "./model.ts";

export const MAX_TAGS = 10;
export const MAX_TAG_CHARS = 128;
/** How far ahead o:deliverytime may schedule (Mailgun's documented 3 days). */
export const MAX_SCHEDULE_AHEAD_MS = 3 * 86_400_000;
const VARIABLES_HEADER = "x-mailgun-variables";

export interface MessageOptions {
  tags: string[];
  isTestMode: boolean;
  tracking: TrackingFlags;
  sendAt?: number;
  ipPool?: string;
  /** o:sending-ip: the egress source's address to send from. */
  sendingIp?: string;
  replyTo?: Address[];
  /** v: user variables (plus a JSON h:X-Mailgun-Variables), carried to events as user-variables. */
  metadata: Record<string, string>;
  /** The h: headers with X-Mailgun-Variables set from `metadata` (as Mailgun puts it in the mail). */
  headersFor(metadata: Record<string, string>): Record<string, string>;
}

const toAddress = (p: { email: string; name?: string }): Address => (p.name ? { email: p.email, name: p.name } : { email: p.email });

/** `from`: required; a value that does not parse is passed on for the core to report. */
export function senderOf(form: Form): Address {
  const raw = form.get("from")?.trim();
  if (!raw) throw invalid("from parameter is missing", "from");
  const parsed = parseAddress(raw, { shouldCheckSyntax: false });
  return parsed ? toAddress(parsed) : { email: raw };
}

/** Every address of a repeated and/or comma-separated field; unparseable entries go on as given. */
export function recipientsOf(form: Form, field: string): Address[] {
  return form.getAll(field).flatMap((value) => {
    const list = parseAddressList(value, { shouldCheckSyntax: false });
    return [...list.parsed.map(toAddress), ...list.unparseable.map((email) => ({ email }))];
  });
}

/** A yes/no option; anything else is a 400 naming it. */
function flag(form: Form, name: string): boolean | undefined {
  const value = form.get(name);
  if (value === undefined || value === "") return undefined;
  const parsed = parseYesNo(value);
  if (parsed === undefined) throw invalid(`${name} must be yes or no, got "${value}"`, name);
  return parsed;
}

function readTags(form: Form): string[] {
  const tags = form.getAll("o:tag").map((t) => t.trim()).filter(Boolean);
  if (tags.length > MAX_TAGS) throw invalid(`Too many tags: at most ${MAX_TAGS} o:tag values per message`, "o:tag");
  const long = tags.find((t) => t.length > MAX_TAG_CHARS);
  if (long) throw invalid(`tag "${long.slice(0, 20)}..." is longer than ${MAX_TAG_CHARS} characters`, "o:tag");
  return [...new Set(tags)];
}

/** o:tracking is the master switch; o:tracking-opens / -clicks refine it ("htmlonly" counts as on). */
function readTracking(form: Form): TrackingFlags {
  const all = flag(form, "o:tracking");
  const opens = all === false ? false : flag(form, "o:tracking-opens") ?? all;
  const clicks = all === false ? false : flag(form, "o:tracking-clicks") ?? all;
  return { ...(opens !== undefined && { opens }), ...(clicks !== undefined && { clicks }) };
}

function readSendAt(form: Form, now: number): number | undefined {
  const at = requireDate(form.get("o:deliverytime"), "o:deliverytime");
  if (at === null || at <= now) return undefined;
  if (at - now > MAX_SCHEDULE_AHEAD_MS) throw invalid("o:deliverytime may be at most 3 days in the future", "o:deliverytime");
  return at;
}

/** v: values, plus the object of a JSON h:X-Mailgun-Variables (v: wins). */
function readMetadata(form: Form, headerJson: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headerJson) {
    let parsed: unknown;
    try { parsed = JSON.parse(headerJson); } catch { throw invalid("h:X-Mailgun-Variables must be a JSON object", "h:X-Mailgun-Variables"); }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("h:X-Mailgun-Variables must be a JSON object", "h:X-Mailgun-Variables");
    for (const [k, v] of Object.entries(parsed)) out[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  for (const [k, v] of form.withPrefix("v:")) out[k] = v;
  return out;
}

/** Reads every o:, h: and v: option of the form. */
export function readOptions(form: Form, now: number): MessageOptions {
  const headers: Record<string, string> = {};
  let variablesJson: string | undefined;
  let replyTo: Address[] | undefined;
  for (const [name, value] of form.withPrefix("h:")) {
    if (name.toLowerCase() === VARIABLES_HEADER) variablesJson = value;
    else if (name.toLowerCase() === "reply-to") replyTo = recipientsOf(form, `h:${name}`);
    else headers[name] = value;
  }
  return {
    tags: readTags(form), isTestMode: flag(form, "o:testmode") ?? false, tracking: readTracking(form),
    sendAt: readSendAt(form, now), ipPool: form.get("o:sending-ip-pool") || undefined,
    sendingIp: form.get("o:sending-ip")?.trim() || undefined, replyTo,
    metadata: readMetadata(form, variablesJson),
    headersFor: (metadata) => (Object.keys(metadata).length ? { ...headers, "X-Mailgun-Variables": JSON.stringify(metadata) } : { ...headers }),
  };
}

/** A part's type, or the one its file name implies when the client sent none (native FormData). */
function contentTypeOf(file: File, filename: string): string {
  const given = file.type.split(";")[0]!.trim();
  if (given && given !== "application/octet-stream") return file.type;
  const ext = /\.[A-Za-z0-9]+$/.exec(filename)?.[0] ?? "";
  return ext ? Bun.file(`attachment${ext}`).type : "application/octet-stream";
}

/** `attachment` and `inline` parts (files, or text values from scripts); inline ones are cid:<filename>. */
export async function readAttachments(form: Form): Promise<Attachment[]> {
  const out: Attachment[] = [];
  for (const disposition of ["attachment", "inline"] as const) {
    for (const value of form.values(disposition)) {
      const filename = typeof value === "string" ? disposition : value.name || "file";
      const content = typeof value === "string" ? new TextEncoder().encode(value) : new Uint8Array(await value.arrayBuffer());
      const contentType = typeof value === "string" ? "text/plain" : contentTypeOf(value, filename);
      out.push({ filename, contentType, content, disposition, ...(disposition === "inline" && { contentId: filename }) });
    }
  }
  return out;
}
