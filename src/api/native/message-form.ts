// `POST /{domain}/messages` form fields → the parts of a SendRequest: addresses, options (o:),
// custom headers (h:), variables (v:), attachments and the template inputs. Only shape and
// encoding are checked here; addresses, headers and the domain are checked again in core/send.ts.
import type { Address, Attachment, TrackingFlags } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";
import { parseAddress, parseAddressList } from "../../core/address/address.ts";
import { filesOf, parseFlag, parseJsonObject, textOf, textsOf, type FormFields } from "./model.ts";
import { toRecipientVariables, type RecipientVariables } from "../../core/recipient-variables.ts";

// Mailgun's documented ceiling per request (to + cc + bcc).
export const MAX_RECIPIENTS = 1000;
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;

export interface MessageForm {
  from: Address;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  replyTo?: Address[];
  subject?: string;
  text?: string;
  html?: string;
  amp?: string;
  /** h:<name> fields (Reply-To excepted: it becomes replyTo). */
  headers: Record<string, string>;
  /** v:<name> fields as given (strings), carried as metadata and in X-Mailgun-Variables. */
  variables: Record<string, string>;
  tags: string[];
  isTestMode?: boolean;
  tracking: TrackingFlags;
  callbackUrl?: string;
  /** `pool`: the egress pool to send through (contract §9). */
  pool?: string;
  template?: string;
  templateVariables: Record<string, unknown>;
  recipientVariables?: RecipientVariables;
}

const toAddress = (a: { email: string; name?: string }): Address => (a.name ? { email: a.email, name: a.name } : { email: a.email });

/** Every address of a list field (comma-separated and/or repeated); one bad entry is a 400. */
function readAddressList(values: string[], name: string): Address[] {
  const out: Address[] = [];
  for (const value of values) {
    const list = parseAddressList(value);
    if (list.unparseable.length) throw invalid(`${name}: "${list.unparseable[0]}" is not a valid address`, name);
    out.push(...list.parsed.map(toAddress));
  }
  return out;
}

function readFrom(fields: FormFields): Address {
  const value = textOf(fields, "from");
  if (value === undefined || value.trim() === "") throw invalid("from is required", "from");
  const parsed = parseAddress(value);
  if (!parsed) throw invalid(`from: "${value}" is not a valid address`, "from");
  return toAddress(parsed);
}

/** o:tracking sets both; o:tracking-opens / o:tracking-clicks override it. `htmlonly` = yes (postern tracks HTML links only). */
function readTracking(fields: FormFields): TrackingFlags {
  const all = parseFlag(textOf(fields, "o:tracking"), "o:tracking");
  const opens = parseFlag(textOf(fields, "o:tracking-opens"), "o:tracking-opens") ?? all;
  const clicksText = textOf(fields, "o:tracking-clicks");
  const clicks = clicksText?.trim().toLowerCase() === "htmlonly" ? true : parseFlag(clicksText, "o:tracking-clicks") ?? all;
  const out: TrackingFlags = {};
  if (opens !== undefined) out.opens = opens;
  if (clicks !== undefined) out.clicks = clicks;
  return out;
}

function readPrefixed(fields: FormFields, prefix: "h:" | "v:"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of fields.keys()) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    if (!name) throw invalid(`${key} needs a name after "${prefix}"`, key);
    out[name] = textOf(fields, key)!;
  }
  return out;
}

function readTags(fields: FormFields): string[] {
  const tags = textsOf(fields, "o:tag").map((t) => t.trim()).filter(Boolean);
  const bad = tags.find((t) => CONTROL_CHARS.test(t));
  if (bad !== undefined) throw invalid("o:tag must not contain control characters", "o:tag");
  return [...new Set(tags)];
}

function readCallbackUrl(fields: FormFields): string | undefined {
  const value = textOf(fields, "callback_url")?.trim();
  if (!value) return undefined;
  let url: URL | null = null;
  try { url = new URL(value); } catch { /* refused below */ }
  if (!url || !/^https?:$/.test(url.protocol)) throw invalid("callback_url must be an http or https URL", "callback_url");
  return value;
}

/** Splits h:Reply-To off the custom headers: it is the reply_to field under another name (as in Mailgun). */
function readReplyTo(fields: FormFields, headers: Record<string, string>): Address[] | undefined {
  const headerKey = Object.keys(headers).find((k) => k.toLowerCase() === "reply-to");
  const headerValue = headerKey !== undefined ? headers[headerKey] : undefined;
  if (headerKey !== undefined) delete headers[headerKey];
  const values = fields.has("reply_to") ? textsOf(fields, "reply_to") : headerValue !== undefined ? [headerValue] : [];
  const list = readAddressList(values, "reply_to");
  return list.length ? list : undefined;
}

/** Reads every non-file field; `domain` is the path's domain, which a `domain` field must repeat. */
export function readMessageForm(fields: FormFields, domain: string): MessageForm {
  const bodyDomain = textOf(fields, "domain")?.trim().toLowerCase();
  if (bodyDomain && bodyDomain !== domain.toLowerCase()) {
    throw invalid(`domain "${bodyDomain}" differs from the domain of the path (${domain})`, "domain");
  }
  const headers = readPrefixed(fields, "h:");
  const list = (name: string) => readAddressList(textsOf(fields, name), name);
  const form: MessageForm = {
    from: readFrom(fields), to: list("to"), cc: list("cc"), bcc: list("bcc"),
    replyTo: readReplyTo(fields, headers), subject: textOf(fields, "subject"), text: textOf(fields, "text"), html: textOf(fields, "html"),
    amp: textOf(fields, "amp-html"), headers, variables: readPrefixed(fields, "v:"), tags: readTags(fields),
    isTestMode: parseFlag(textOf(fields, "o:testmode"), "o:testmode"), tracking: readTracking(fields), callbackUrl: readCallbackUrl(fields),
    template: textOf(fields, "template")?.trim() || undefined, pool: textOf(fields, "pool")?.trim() || undefined,
    templateVariables: parseJsonObject(textOf(fields, "template_variables"), "template_variables") ?? {},
  };
  const rv = parseJsonObject(textOf(fields, "recipient-variables"), "recipient-variables");
  if (rv) form.recipientVariables = toRecipientVariables(rv);
  const count = form.to.length + form.cc.length + form.bcc.length;
  if (count === 0) throw invalid("to is required", "to");
  if (count > MAX_RECIPIENTS) throw invalid(`at most ${MAX_RECIPIENTS} recipients (to, cc and bcc) per request, got ${count}`, "to");
  return form;
}

/** `attachment` and `inline` files; an inline part is referenced from HTML as `cid:<filename>`. */
export async function readAttachments(fields: FormFields): Promise<Attachment[]> {
  const one = async (file: File, disposition: "attachment" | "inline"): Promise<Attachment> => {
    const filename = file.name || (disposition === "inline" ? "inline" : "attachment");
    const content = new Uint8Array(await file.arrayBuffer());
    const att: Attachment = { filename, contentType: file.type || "application/octet-stream", content, disposition };
    if (disposition === "inline") att.contentId = filename;
    return att;
  };
  return Promise.all([
    ...filesOf(fields, "attachment").map((f) => one(f, "attachment")),
    ...filesOf(fields, "inline").map((f) => one(f, "inline")),
  ]);
}
