// Compact signed tokens carried in tracking URLs (/t/o/, /t/c/, /t/u/): a packed binary payload plus
// a truncated HMAC-SHA256, base64url-encoded. verify() never throws: any defect yields null, so the
// HTTP edge answers 404 and a forged click token can never become an open redirect.
import { timingSafeEqual } from "node:crypto";

export type TrackingKind = "open" | "click" | "unsubscribe" | "list-unsubscribe";

export interface TrackingPayload {
  kind: TrackingKind;
  messageId: string;
  recipientId: string;
  domain: string;
  /** Click target (the original URL, entities already decoded). */
  url?: string;
  /** Position of the link among the message's tracked links, starting at 0. */
  linkIndex?: number;
}

export interface TokenCodec {
  sign(payload: TrackingPayload): string;
  verify(token: string): TrackingPayload | null;
}

/** Format version in the top three bits of the header byte; bump when the layout changes. */
const TOKEN_VERSION = 1;
/** 128-bit tag: truncation per RFC 2104 §5 keeps at least half the hash output (RFC 4868 §2.3 uses the same). */
const MAC_BYTES = 16;
/** Longest token signed or accepted; long click URLs are the only thing that grows a token. */
const MAX_TOKEN_CHARS = 32_768;
/** Largest linkIndex a token carries (fits a 5-byte LEB128 varint). */
const MAX_LINK_INDEX = 0x7fff_ffff;
const BASE64URL_RE = /^[A-Za-z0-9_-]+$/;

// list-unsubscribe: messageId is the mailing list address, recipientId the member (Mailgun lists).
const KINDS: readonly TrackingKind[] = ["open", "click", "unsubscribe", "list-unsubscribe"];
/** URL modes (header bits 1-0): 0 no url, 1 verbatim, 2/3 the scheme prefix below is elided to save 8 chars. */
const URL_MODE_NONE = 0;
const URL_MODE_VERBATIM = 1;
const ELIDED_PREFIXES: readonly [number, string][] = [
  [2, "https://"],
  [3, "http://"],
];

/** Creates the sign/verify pair for one secret; tokens of another secret never verify. */
export function createTokenCodec(secret: string): TokenCodec {
  if (secret.length === 0) throw new Error("tracking token secret must not be empty");
  const key = Buffer.from(secret, "utf8");
  // A keyed hasher copied per call skips re-deriving the HMAC key pads (about 2x faster than createHmac).
  const keyed = new Bun.CryptoHasher("sha256", key);
  const macOf = (body: Uint8Array): Buffer => keyed.copy().update(body).digest().subarray(0, MAC_BYTES);

  return {
    sign(payload) {
      const body = encodeBody(payload);
      // encodeBody leaves MAC_BYTES of room after the body, so the MAC is copied in place.
      const full = Buffer.from(body.buffer, body.byteOffset, body.length + MAC_BYTES);
      macOf(body).copy(full, body.length);
      const token = full.toString("base64url");
      // Never hand out a token that verify() would refuse; rewrite.ts skips URLs this long.
      if (token.length > MAX_TOKEN_CHARS) throw new RangeError("tracking token too long");
      return token;
    },
    verify(token) {
      if (typeof token !== "string" || token.length > MAX_TOKEN_CHARS || !BASE64URL_RE.test(token)) return null;
      const raw = Buffer.from(token, "base64url");
      // Only the canonical spelling verifies: base64 leaves slack in the last character's low bits.
      if (raw.length <= MAC_BYTES || raw.toString("base64url") !== token) return null;
      const body = raw.subarray(0, raw.length - MAC_BYTES);
      const mac = raw.subarray(raw.length - MAC_BYTES);
      if (!timingSafeEqual(mac, macOf(body))) return null;
      return decodeBody(body);
    },
  };
}

/** Layout: header byte, then varint-length strings messageId, recipientId, domain, [url], [varint linkIndex]. */
function encodeBody(p: TrackingPayload): Buffer {
  const kindCode = KINDS.indexOf(p.kind);
  if (kindCode < 0) throw new RangeError(`unknown tracking kind: ${String(p.kind)}`);
  const linkIndex = p.linkIndex;
  if (linkIndex !== undefined && !(Number.isInteger(linkIndex) && linkIndex >= 0 && linkIndex <= MAX_LINK_INDEX)) {
    throw new RangeError(`linkIndex must be an integer in 0..${MAX_LINK_INDEX}`);
  }
  const [urlMode, urlRest] = splitUrl(p.url);
  const strings = [p.messageId, p.recipientId, p.domain];
  if (urlMode !== URL_MODE_NONE) strings.push(urlRest);
  // One allocation sized up front (5 = longest varint): this runs once per link per recipient.
  let capacity = 1 + 5;
  for (const s of strings) capacity += 5 + s.length * 3;
  const buf = Buffer.allocUnsafe(capacity + MAC_BYTES);
  buf[0] = (TOKEN_VERSION << 5) | (kindCode << 3) | (linkIndex !== undefined ? 4 : 0) | urlMode;
  let pos = 1;
  for (const s of strings) {
    const len = Buffer.byteLength(s, "utf8");
    pos = writeVarint(buf, pos, len);
    pos += buf.write(s, pos, "utf8");
  }
  if (linkIndex !== undefined) pos = writeVarint(buf, pos, linkIndex);
  return buf.subarray(0, pos);
}

function splitUrl(url: string | undefined): [number, string] {
  if (url === undefined) return [URL_MODE_NONE, ""];
  for (const [mode, prefix] of ELIDED_PREFIXES) {
    if (url.startsWith(prefix)) return [mode, url.slice(prefix.length)];
  }
  return [URL_MODE_VERBATIM, url];
}

/** Parses a body whose MAC already checked out; still bounds-checked so a format bug yields null, not a throw. */
function decodeBody(body: Buffer): TrackingPayload | null {
  const header = body[0];
  if (header === undefined || header >> 5 !== TOKEN_VERSION) return null;
  const kind = KINDS[(header >> 3) & 3];
  if (kind === undefined) return null;
  const urlMode = header & 3;

  const reader = { buf: body, pos: 1 };
  const messageId = readString(reader);
  const recipientId = readString(reader);
  const domain = readString(reader);
  if (messageId === null || recipientId === null || domain === null) return null;
  const payload: TrackingPayload = { kind, messageId, recipientId, domain };

  if (urlMode !== URL_MODE_NONE) {
    const rest = readString(reader);
    if (rest === null) return null;
    const prefix = ELIDED_PREFIXES.find(([mode]) => mode === urlMode)?.[1] ?? "";
    payload.url = prefix + rest;
  }
  if (header & 4) {
    const linkIndex = readVarint(reader);
    if (linkIndex === null) return null;
    payload.linkIndex = linkIndex;
  }
  return reader.pos === body.length ? payload : null;
}

interface Reader {
  buf: Buffer;
  pos: number;
}

function readString(r: Reader): string | null {
  const len = readVarint(r);
  if (len === null || r.pos + len > r.buf.length) return null;
  const s = r.buf.toString("utf8", r.pos, r.pos + len);
  r.pos += len;
  return s;
}

/** Unsigned LEB128, at most 5 bytes (values up to 2^31 - 1 are all this format writes); returns the new offset. */
function writeVarint(buf: Buffer, at: number, n: number): number {
  let pos = at;
  let v = n;
  while (v >= 0x80) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}

function readVarint(r: Reader): number | null {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const byte = r.buf[r.pos++];
    if (byte === undefined) return null;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return value <= MAX_LINK_INDEX ? value : null;
  }
  return null;
}
