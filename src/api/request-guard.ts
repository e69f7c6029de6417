// What every request passes before a surface sees it, so that no client input can reach a handler
// in a shape it cannot take: one well-formed Host (else 400), a URL that always parses, a
// path whose %-escapes decode, and a body within the stated limits (size, JSON depth and member
// count, form field count). Failures are AppErrors, which each surface renders in its own shape.
import { AppError, invalid } from "../core/errors.ts";

/** The limits stated in docs/limits.md; every surface answers them in its vendor's error shape. */
export const LIMITS = {
  /** Whole request body (Mailgun's documented 52.4 MiB; the listener refuses above 64 MiB). */
  maxBodyBytes: 52_428_800,
  /** Nesting of JSON arrays and objects. */
  maxJsonDepth: 64,
  /** Object members plus array elements in one JSON body. */
  maxJsonValues: 1_000_000,
  /** Fields of a multipart or urlencoded form. */
  maxFormFields: 10_000,
} as const;

const CANONICAL_ORIGIN = "http://localhost";

/**
 * The request's URL, always parseable. Bun hands a Host it cannot use through as given (`x:99999`)
 * or drops it (`/path` alone), and Elysia finds the path by skipping a host of at least 4
 * characters; such requests are routed on their path under a neutral origin.
 */
export function canonicalUrl(raw: string): URL {
  try {
    const url = new URL(raw);
    if (url.host.length >= 4) return url;
  } catch {
    // falls through: a relative URL or a Host the URL parser refuses
  }
  const rest = raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  try {
    return new URL(rest.startsWith("/") ? rest : `/${rest}`, CANONICAL_ORIGIN);
  } catch {
    return new URL("/", CANONICAL_ORIGIN);
  }
}

// RFC 9112 §3.2 with RFC 3986 §3.2.2: uri-host [":" port]. A reg-name without the comma, so the
// one value Bun makes of repeated Host lines ("a, b") fails too.
const HOST = /^(?:\[[0-9a-f:.]+\]|\[v[0-9a-f]+\.[\w.~!$&'()*+;=:-]+\]|(?:[\w.~!$&'()*+;=-]|%[0-9a-f]{2})+)(?::(\d*))?$/i;

/**
 * True unless the request carries a Host that is empty, repeated or malformed (a port above 65535,
 * an unclosed `[`, a space). No Host line at all is the listener's to refuse (Bun answers 400 to an
 * HTTP/1.1 request without one before postern runs); a Request built in-process has none either.
 */
export function hostValid(value: string | null): boolean {
  if (value === null) return true;
  const m = HOST.exec(value);
  return m !== null && (m[1] === undefined || m[1] === "" || Number(m[1]) <= 65_535);
}

/** A request HTTP itself refuses (not a field of it): 400 on every surface, SparkPost's 422 aside. */
export class MalformedRequest extends AppError {
  constructor(message: string) { super("invalid", message); }
}

export const badHostError = () => new MalformedRequest("the Host header must be one host[:port] (RFC 9112 §3.2)");

/** True when every %-escape of `path` decodes to UTF-8 (no `%ZZ`, no lone surrogate `%ED%A0%80`). */
export function pathDecodes(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const badPathError = () => invalid("the request path holds a malformed %-escape");

const hexAt = (text: string, i: number) => (/^[0-9a-f]{4}$/i.test(text.slice(i, i + 4)) ? parseInt(text.slice(i, i + 4), 16) : -1);
const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/**
 * Depth and value count of JSON text, read without parsing (strings skipped, their ends found by
 * native searches: scanned a character at a time they cost 1.4 % of the delivery bench's CPU), and
 * whether a string escapes a lone surrogate (`"\ud800"`: no character, and invalid in any mail header).
 */
export function jsonShape(text: string): { depth: number; values: number; loneSurrogate: boolean } {
  let depth = 0, maxDepth = 0, values = 0, loneSurrogate = false;
  const end = text.length;
  // The next quote and backslash at or after a position (end: none), each searched again once passed.
  let quote = -1, backslash = -1;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string to its closing quote, checking on the way that \u surrogates pair up.
      for (;;) {
        if (quote <= i) { quote = text.indexOf('"', i + 1); if (quote < 0) quote = end; }
        if (backslash <= i) { backslash = text.indexOf("\\", i + 1); if (backslash < 0) backslash = end; }
        if (backslash < quote) {
          i = backslash;
          if (text.charCodeAt(i + 1) === 117) { // \u
            const u = hexAt(text, i + 2);
            if (isHigh(u)) {
              if (text[i + 6] === "\\" && text[i + 7] === "u" && isLow(hexAt(text, i + 8))) i += 6;
              else loneSurrogate = true;
            } else if (isLow(u)) loneSurrogate = true;
          }
          i++; // the escaped character
          continue;
        }
        if (quote === end) return { depth: maxDepth, values, loneSurrogate };
        i = quote;
        break;
      }
    } else if (c === 123 || c === 91) { depth++; values++; if (depth > maxDepth) maxDepth = depth; }
    else if (c === 125 || c === 93) depth--;
    else if (c === 44) values++;
  }
  return { depth: maxDepth, values, loneSurrogate };
}

function formFieldCount(body: Uint8Array, contentType: string): number {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    let n = 1;
    for (let i = text.indexOf(38); i >= 0; i = text.indexOf(38, i + 1)) n++;
    return n;
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return 0;
  const needle = Buffer.from(`--${boundary}`);
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

const looksLikeJson = (body: Uint8Array) => {
  for (let i = 0; i < Math.min(body.length, 64); i++) {
    const c = body[i]!;
    if (c === 123 || c === 91) return true;
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 0xef && c !== 0xbb && c !== 0xbf) return false;
  }
  return false;
};

// Mailgun's words for its documented limit, which is the one applied here to every surface.
const tooLarge = () => new AppError("too_large", "request size exceeds 52.4MiB limit");

/** Refuses a declared body above the limit before any of it is read. */
export function checkDeclaredLength(headers: Headers): void {
  const declared = Number(headers.get("content-length") ?? 0);
  if (declared > LIMITS.maxBodyBytes) throw tooLarge();
}

/**
 * At most `max` bytes of a body as text; the rest is never read (the connection is closed on it).
 * For the few bodies taken before anyone is authenticated (unsubscribe forms, console sign-in),
 * which checkBody's limits are too wide for.
 */
export async function readCapped(req: Request, max: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  void reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, max).toString("utf8");
}

/** The JSON text checkBody decoded, by the request it returned: the surface's reader parses it
 *  instead of reading and decoding the same bytes a second time. */
const checkedJson = new WeakMap<Request, { text: string; bytes: number }>();
export const checkedJsonText = (req: Request) => checkedJson.get(req);

/**
 * Reads the body (bounded), checks it against LIMITS, and returns a request carrying the same
 * bytes, or the request itself when it has no body.
 */
export async function checkBody(req: Request, url: string): Promise<Request> {
  if (req.method === "GET" || req.method === "HEAD" || !req.body) return req;
  checkDeclaredLength(req.headers);
  const body = new Uint8Array(await req.arrayBuffer());
  if (body.length > LIMITS.maxBodyBytes) throw tooLarge();
  const type = req.headers.get("content-type") ?? "";
  let text: string | null = null;
  if (/json/i.test(type) || looksLikeJson(body)) {
    text = new TextDecoder().decode(body);
    const { depth, values, loneSurrogate } = jsonShape(text);
    if (loneSurrogate) throw invalid("JSON strings may not hold unpaired surrogates (\\ud800–\\udfff)");
    if (depth > LIMITS.maxJsonDepth) throw invalid(`JSON may nest at most ${LIMITS.maxJsonDepth} levels`);
    if (values > LIMITS.maxJsonValues) throw invalid(`JSON may hold at most ${LIMITS.maxJsonValues} values`);
  } else if (formFieldCount(body, type) > LIMITS.maxFormFields) {
    throw invalid(`a form may hold at most ${LIMITS.maxFormFields} fields`);
  }
  const checked = new Request(url, { method: req.method, headers: req.headers, body });
  if (text !== null) checkedJson.set(checked, { text, bytes: body.length });
  return checked;
}
