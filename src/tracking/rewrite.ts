// Send-time tracking: open pixel, click-link rewriting, RFC 8058 List-Unsubscribe headers and the
// hidden honeypot link. A message is scanned once (prepareTracking) and each recipient only signs
// tokens into the prepared template (render). Serving the tracking URLs is api/tracking.ts's job.
import { findTextLinks, hasHoneypotLink, isTrackableUrl, scanHtml } from "./links.ts";
import type { TokenCodec, TrackingPayload } from "./token.ts";
import {
  escapeAttribute, fillUnsubscribeEmails, PREFERENCES_SCOPE, preferencesScope, UNSUBSCRIBE_PLACEHOLDERS,
} from "./unsubscribe-placeholders.ts";
export {
  GLOBAL_UNSUBSCRIBE_SCOPE, PREFERENCES_PLACEHOLDER, PREFERENCES_SCOPE, TAG_UNSUBSCRIBE_SCOPE, UNSUBSCRIBE_EMAIL_PLACEHOLDERS, UNSUBSCRIBE_PLACEHOLDER,
} from "./unsubscribe-placeholders.ts";

export interface TrackingInput {
  html?: string;
  text?: string;
  headers: Record<string, string>;
}

/** Everything that is the same for every recipient of one message. */
export interface MessageTrackingOptions {
  /** Base of the tracking URLs, e.g. `https://email.example.com` (a trailing `/` is ignored). */
  publicUrl: string;
  domain: string;
  messageId: string;
  codec: TokenCodec;
  opens: boolean;
  clicks: boolean;
  /** Also rewrite bare URLs in the text part (default false: long opaque URLs hurt plain-text readers). */
  clickText?: boolean;
  /** Add List-Unsubscribe headers; callers turn this off for transactional mail. */
  unsubscribe: boolean;
  honeypot: boolean;
  /** SendGrid `open_tracking.substitution_tag`: the pixel replaces the first occurrence of this tag. */
  openSubstitutionTag?: string;
  /** Unsubscribe groups the preferences link offers (SendGrid asm.groups_to_display, else asm.group_id). */
  unsubscribeGroups?: number[];
  /** The mailbox that unsubscribes a recipient when mail reaches it (Mailgun's %unsubscribe_email%, %tag_unsubscribe_email%). */
  unsubscribeEmail?: (recipientId: string, scope: "all" | "tags") => string;
}

export interface RecipientTracking {
  recipientId: string;
  /** `mailto:` target added to List-Unsubscribe, e.g. `unsubscribe+<token>@bounce.example.com`. */
  mailtoUnsubscribe?: string;
}

export type TrackingOptions = MessageTrackingOptions & RecipientTracking;
export type TrackingResult = TrackingInput;

export interface TrackingTemplate {
  /** Link indexes handed out to click tokens: tracked HTML links, then text-only links. */
  linkCount: number;
  render(recipient: RecipientTracking): TrackingResult;
}

/** A per-recipient token slot in the template; literal text around it is already in place. */
type Hole = { kind: "open" } | { kind: "click"; url: string; linkIndex: number };
type Part = string | Hole;
/** Tracked HTML links: first index of each URL, and how many indexes were handed out. */
interface HtmlLinks {
  urls: Map<string, number>;
  linkCount: number;
}
interface Edit {
  start: number;
  end: number;
  parts: Part[];
}

/**
 * The open pixel is a 1x1 background image, not an <img>: SpamAssassin's HTML_IMAGE_ONLY_* rules
 * fire on any <img> in HTML with under 3,200 bytes of text, so an <img> pixel alone cost short
 * tracked mail up to 1.8 points. Clients fetch background images like images: the table cell's
 * `background` attribute (Gmail, Apple Mail, Outlook.com, Yahoo) at the end of the body; inline,
 * where a SendGrid substitution tag sits, a span with a CSS background-image.
 */
const PIXEL_BLOCK = ['<table role="presentation" border="0" cellpadding="0" cellspacing="0" width="1"><tr><td background="',
  '" width="1" height="1" style="width:1px;height:1px;line-height:1px;font-size:1px;"></td></tr></table>'] as const;
const PIXEL_INLINE = ['<span style="display:inline-block;width:1px;height:1px;background-image:url(',
  ');background-repeat:no-repeat;"></span>'] as const;
/**
 * Honeypot: a 1px-text link around a zero-size span. Deliberately not display:none or
 * visibility:hidden (Gmail sender guidelines warn against CSS-hidden content, and link scanners
 * follow every href anyway), and no colour (color:transparent fires SpamAssassin's
 * HTML_FONT_LOW_CONTRAST): its only text is a zero-width space. aria-hidden and tabindex keep
 * screen-reader and keyboard users off it.
 */
const HONEYPOT_STYLE = "font-size:1px;line-height:1px;text-decoration:none;";
const HONEYPOT_INNER =
  '<span style="display:inline-block;width:0;height:0;overflow:hidden;font-size:0;line-height:0;">&#8203;</span>';
/** RFC 8058 §3.1: the one value List-Unsubscribe-Post may carry. */
const ONE_CLICK_POST_VALUE = "List-Unsubscribe=One-Click";

/** Applies tracking for one recipient; equivalent to prepareTracking(input, opts).render(opts). */
export function applyTracking(input: TrackingInput, opts: TrackingOptions): TrackingResult {
  return prepareTracking(input, opts).render(opts);
}

/** Scans the message once and returns a template that only signs tokens per recipient. */
export function prepareTracking(input: TrackingInput, opts: MessageTrackingOptions): TrackingTemplate {
  const base = opts.publicUrl.replace(/\/+$/, "");
  const isHtmlTracked = opts.opens || opts.clicks || opts.honeypot || Boolean(opts.openSubstitutionTag);
  const html = input.html !== undefined && isHtmlTracked ? prepareHtml(input.html, base, opts) : undefined;
  const htmlLinks: HtmlLinks = html ?? { urls: new Map(), linkCount: 0 };
  const text =
    input.text !== undefined && opts.clicks && opts.clickText ? prepareText(input.text, base, htmlLinks) : undefined;
  const linkCount = text?.linkCount ?? htmlLinks.linkCount;

  return {
    linkCount,
    render(recipient) {
      const sign = makeSigner(opts, recipient);
      const out: TrackingResult = { headers: renderHeaders(input.headers, base, opts, recipient) };
      if (input.html !== undefined) out.html = html ? fill(html.parts, sign) : input.html;
      if (input.text !== undefined) out.text = text ? fill(text.parts, sign) : input.text;
      if (opts.unsubscribeEmail) fillUnsubscribeEmails(out, (scope) => opts.unsubscribeEmail!(recipient.recipientId, scope));
      if (opts.unsubscribe) {
        // Mailgun's %unsubscribe_url% (also how SendGrid's subscription_tracking footer is placed),
        // %tag_unsubscribe_url% (only from the message's tags) and %mailing_list_unsubscribe_url%.
        for (const [placeholder, scope] of UNSUBSCRIBE_PLACEHOLDERS) {
          if (!out.html?.includes(placeholder) && !out.text?.includes(placeholder)) continue;
          const url = unsubscribeUrl(base, opts, recipient, scope === PREFERENCES_SCOPE ? preferencesScope(opts.unsubscribeGroups) : scope);
          if (out.html?.includes(placeholder)) out.html = out.html.replaceAll(placeholder, escapeAttribute(url));
          if (out.text?.includes(placeholder)) out.text = out.text.replaceAll(placeholder, url);
        }
      }
      return out;
    },
  };
}

function makeSigner(opts: MessageTrackingOptions, recipient: RecipientTracking): (hole: Hole) => string {
  const common = { messageId: opts.messageId, recipientId: recipient.recipientId, domain: opts.domain };
  return (hole) => {
    const payload: TrackingPayload =
      hole.kind === "open"
        ? { kind: "open", ...common }
        : { kind: "click", ...common, url: hole.url, linkIndex: hole.linkIndex };
    return opts.codec.sign(payload);
  };
}

function prepareHtml(html: string, base: string, opts: MessageTrackingOptions): HtmlLinks & { parts: Part[] } {
  const scan = scanHtml(html);
  const edits: Edit[] = [];
  const urls = new Map<string, number>();
  const clickPrefix = escapeAttribute(base) + "/t/c/";
  let linkIndex = 0;
  if (opts.clicks) {
    for (const a of scan.anchors) {
      if (a.isOptedOut || !isTrackableUrl(a.url, base)) continue;
      // Unquoted values get quotes: the replacement is safe either way, but quoting keeps it obvious.
      const quote = a.isUnquoted ? '"' : "";
      const hole: Hole = { kind: "click", url: a.url, linkIndex };
      edits.push({ start: a.start, end: a.end, parts: [quote + clickPrefix, hole, quote] });
      if (!urls.has(a.url)) urls.set(a.url, linkIndex);
      linkIndex++;
    }
  }
  const isPixelPlaced = opts.openSubstitutionTag ? placeSubstitutionTag(html, opts, pixelParts(base, PIXEL_INLINE), edits) : false;
  const tail: Part[] = [];
  if (opts.opens && !isPixelPlaced) tail.push(...pixelParts(base, PIXEL_BLOCK));
  if (opts.honeypot && !hasHoneypotLink(html)) tail.push(honeypotMarkup(base, opts));
  if (tail.length > 0) {
    const at = scan.closeAt === -1 ? html.length : scan.closeAt;
    edits.push({ start: at, end: at, parts: tail });
  }
  return { parts: applyEdits(html, edits), urls, linkCount: linkIndex };
}

/** Replaces the first substitution tag outside a rewritten href with the pixel and drops the rest. */
function placeSubstitutionTag(html: string, opts: MessageTrackingOptions, pixel: Part[], edits: Edit[]): boolean {
  const tag = opts.openSubstitutionTag ?? "";
  const hrefs = edits.slice();
  let isPlaced = false;
  for (let at = html.indexOf(tag); tag !== "" && at !== -1; at = html.indexOf(tag, at + tag.length)) {
    const end = at + tag.length;
    if (hrefs.some((e) => at < e.end && end > e.start)) continue;
    // With opens off the tag is still removed so it never reaches the recipient literally.
    const isPixelHere: boolean = opts.opens && !isPlaced;
    edits.push({ start: at, end, parts: isPixelHere ? pixel : [] });
    isPlaced ||= isPixelHere;
  }
  return isPlaced;
}

function prepareText(text: string, base: string, html: HtmlLinks): { parts: Part[]; linkCount: number } {
  const edits: Edit[] = [];
  // A text link that also appears in the HTML part shares its index, so "clicked every link" counts
  // one link once whichever part the reader used; text-only links are numbered after the HTML ones.
  const textOnly = new Map<string, number>();
  let linkCount = html.linkCount;
  for (const link of findTextLinks(text)) {
    if (!isTrackableUrl(link.url, base)) continue;
    let linkIndex = html.urls.get(link.url) ?? textOnly.get(link.url);
    if (linkIndex === undefined) {
      linkIndex = linkCount++;
      textOnly.set(link.url, linkIndex);
    }
    const hole: Hole = { kind: "click", url: link.url, linkIndex };
    edits.push({ start: link.start, end: link.end, parts: [base + "/t/c/", hole] });
  }
  return { parts: applyEdits(text, edits), linkCount };
}

/** Splices non-overlapping edits into the source, merging adjacent literals. */
function applyEdits(source: string, edits: Edit[]): Part[] {
  edits.sort((a, b) => a.start - b.start);
  const parts: Part[] = [];
  let literal = "";
  let pos = 0;
  for (const edit of edits) {
    if (edit.start < pos) continue;
    literal += source.slice(pos, edit.start);
    for (const part of edit.parts) {
      if (typeof part === "string") {
        literal += part;
      } else {
        parts.push(literal, part);
        literal = "";
      }
    }
    pos = edit.end;
  }
  parts.push(literal + source.slice(pos));
  return parts;
}

function fill(parts: Part[], sign: (hole: Hole) => string): string {
  let out = "";
  for (const part of parts) out += typeof part === "string" ? part : sign(part);
  return out;
}

function pixelParts(base: string, [before, after]: readonly [string, string]): Part[] {
  return [`${before}${escapeAttribute(base)}/t/o/`, { kind: "open" }, after];
}

/** The S2 honeypot path `/{domain}/{message_id}/hclick` (service spec), placed at the end of the body. */
function honeypotMarkup(base: string, opts: MessageTrackingOptions): string {
  const href = `${base}/${encodeURIComponent(opts.domain)}/${encodeURIComponent(opts.messageId)}/hclick`;
  const attributes = `href="${escapeAttribute(href)}" aria-hidden="true" tabindex="-1" style="${HONEYPOT_STYLE}"`;
  return `<a ${attributes}>${HONEYPOT_INNER}</a>`;
}

/**
 * RFC 8058 §3.1: List-Unsubscribe must carry exactly one HTTPS URI, and List-Unsubscribe-Post is only
 * meaningful next to it, so the Post header is left out when publicUrl is plain http (dev setups).
 * A sender-supplied List-Unsubscribe wins untouched: two HTTPS URIs would break §3.1.
 */
function renderHeaders(
  headers: Record<string, string>,
  base: string,
  opts: MessageTrackingOptions,
  recipient: RecipientTracking,
): Record<string, string> {
  const out = { ...headers };
  if (!opts.unsubscribe || Object.keys(headers).some((k) => k.toLowerCase() === "list-unsubscribe")) return out;
  const uris = [`<${unsubscribeUrl(base, opts, recipient)}>`];
  const mailto = recipient.mailtoUnsubscribe;
  // RFC 2369 §3.2: angle-bracketed URIs, most preferred first. A value that could end the bracket or
  // the header line is dropped rather than let into the header.
  if (mailto && !/[\r\n<>]/.test(mailto)) uris.push(`<${/^mailto:/i.test(mailto) ? mailto : "mailto:" + mailto}>`);
  out["List-Unsubscribe"] = uris.join(", ");
  if (/^https:\/\//i.test(base)) out["List-Unsubscribe-Post"] = ONE_CLICK_POST_VALUE;
  return out;
}

function unsubscribeUrl(base: string, opts: MessageTrackingOptions, recipient: RecipientTracking, scope?: string): string {
  const token = opts.codec.sign({ kind: "unsubscribe", messageId: opts.messageId, recipientId: recipient.recipientId, domain: opts.domain,
    ...(scope ? { url: scope } : {}) });
  return `${base}/t/u/${token}`;
}
