// VERP return paths: `b+<token>@<bounce domain>`, where the token carries a message id, a
// recipient id and a truncated HMAC-SHA256. Lowercase base32 survives case-folding by remote
// MTAs; the local part stays within 64 octets. Knows nothing about storage or SMTP.
import { timingSafeEqual } from "node:crypto";

/** What a return path identifies: the application's short ids, not RFC 5322 Message-IDs. */
export interface ReturnPathIds {
  messageId: string;
  recipientId: string;
}

export interface ReturnPathInput extends ReturnPathIds {
  /** e.g. "bounces.example.com"; compared case-insensitively. */
  bounceDomain: string;
  secret: string;
}

const LOCAL_PART_PREFIX = "b+";
/** RFC 5321 §4.5.3.1.1: a local part is at most 64 octets. */
const MAX_LOCAL_PART_CHARS = 64;
const MAX_TOKEN_CHARS = MAX_LOCAL_PART_CHARS - LOCAL_PART_PREFIX.length;
const BITS_PER_TOKEN_CHAR = 5;
const MAX_TOKEN_BITS = MAX_TOKEN_CHARS * BITS_PER_TOKEN_CHAR;
/** RFC 4648 §6 base32 alphabet, lowercased: the token is case-insensitive by construction. */
const BASE32_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** Ids are packed at 6 bits per character from the base64url alphabet (RFC 4648 §5). */
const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
const BITS_PER_ID_CHAR = 6;
const ID_LENGTH_BITS = 5;
const MAX_ID_CHARS = 2 ** ID_LENGTH_BITS - 1;
/** The MAC fills the room the ids leave, between these bounds (2^-32 per forged try at worst). */
const MAX_MAC_BITS = 64;
const MIN_MAC_BITS = 32;
const MAC_CONTEXT = "postern-verp-v1";

/**
 * Builds the envelope sender for one recipient of one message.
 * Token layout (bits): len(messageId):5, messageId:6/char, len(recipientId):5,
 * recipientId:6/char, MAC:min(64, 310 - used), zero padding to a multiple of 5. Two 22-char
 * ids give a 36-bit MAC and a 64-char local part; shorter ids get up to 64 MAC bits.
 * Throws RangeError for ids outside the alphabet or too long together: a programming error.
 */
export function encodeReturnPath(input: ReturnPathInput): string {
  return encodeAddress(LOCAL_PART_PREFIX, MAC_CONTEXT, input);
}

/** Which mail an unsubscribe mailbox leaves: all of the domain's (Mailgun's %unsubscribe_email%) or the message's tags (%tag_unsubscribe_email%). */
export type UnsubscribeScope = "all" | "tags";
/** Each kind of address has its own prefix and MAC context, so a return path seen by a relay cannot be turned into an unsubscribe. */
const UNSUBSCRIBE_KINDS: Record<UnsubscribeScope, readonly [string, string]> = { all: ["u+", "postern-unsub-v1"], tags: ["t+", "postern-tag-unsub-v1"] };

/** The address that unsubscribes one recipient of one message when mail reaches it (same token layout as a return path). */
export function encodeUnsubscribeAddress(input: ReturnPathInput & { scope: UnsubscribeScope }): string {
  const [prefix, context] = UNSUBSCRIBE_KINDS[input.scope];
  return encodeAddress(prefix, context, input);
}

/** Reads an unsubscribe address back, or null (any other address, a bad MAC). */
export function decodeUnsubscribeAddress(address: string, secret: string): (ReturnPathIds & { scope: UnsubscribeScope }) | null {
  for (const scope of ["all", "tags"] as const) {
    const [prefix, context] = UNSUBSCRIBE_KINDS[scope];
    const ids = decodeAddress(prefix, context, address, secret);
    if (ids) return { ...ids, scope };
  }
  return null;
}

function encodeAddress(prefix: string, context: string, input: ReturnPathInput): string {
  const domain = input.bounceDomain.trim().toLowerCase();
  const dataBits = idBits(input.messageId) + idBits(input.recipientId);
  const macBits = macBitsFor(dataBits);
  if (macBits < MIN_MAC_BITS) {
    throw new RangeError(`VERP ids too long: ${input.messageId.length + input.recipientId.length} characters together`);
  }
  const mac = computeMac(input.secret, domain, input, macBits, context);
  const token = tokenWriter();
  for (const id of [input.messageId, input.recipientId]) {
    token.write(id.length, ID_LENGTH_BITS);
    for (let i = 0; i < id.length; i++) token.write(ID_ALPHABET.indexOf(id[i]!), BITS_PER_ID_CHAR);
  }
  for (let i = 0; i < macBits; i += 8) {
    const width = Math.min(8, macBits - i);
    token.write(mac[i >> 3]! >> (8 - width), width);
  }
  return `${prefix}${token.end()}@${domain}`;
}

/** The bits `id` takes in a token; throws RangeError for an id that cannot be encoded. */
function idBits(id: string): number {
  if (id.length === 0 || id.length > MAX_ID_CHARS) {
    throw new RangeError(`VERP id must be 1-${MAX_ID_CHARS} characters: ${JSON.stringify(id)}`);
  }
  for (let i = 0; i < id.length; i++) {
    if (ID_ALPHABET.indexOf(id[i]!) < 0) throw new RangeError(`VERP id has a character outside [A-Za-z0-9_-]: ${JSON.stringify(id)}`);
  }
  return ID_LENGTH_BITS + id.length * BITS_PER_ID_CHAR;
}

/**
 * Writes a token five bits to a character as values come (at most 8 bits each), the last
 * character padded with zero bits: an array of single bits per recipient cost about 10 µs.
 */
function tokenWriter() {
  let held = 0;
  let bits = 0;
  let out = "";
  return {
    write(value: number, width: number) {
      held = (held << width) | value;
      bits += width;
      while (bits >= BITS_PER_TOKEN_CHAR) {
        bits -= BITS_PER_TOKEN_CHAR;
        out += BASE32_ALPHABET.charAt((held >> bits) & 31);
      }
      held &= (1 << bits) - 1;
    },
    end: () => (bits ? out + BASE32_ALPHABET.charAt((held << (BITS_PER_TOKEN_CHAR - bits)) & 31) : out),
  };
}

/**
 * Reads a return path back into ids, or null for garbage, a foreign domain or a bad MAC.
 * Accepts any letter case and optional angle brackets. Several secrets allow key rotation.
 */
export function decodeReturnPath(address: string, secret: string | readonly string[]): ReturnPathIds | null {
  return decodeAddress(LOCAL_PART_PREFIX, MAC_CONTEXT, address, secret);
}

function decodeAddress(prefix: string, context: string, address: string, secret: string | readonly string[]): ReturnPathIds | null {
  const cleaned = address.trim().replace(/^<(.*)>$/, "$1").toLowerCase();
  const at = cleaned.lastIndexOf("@");
  if (at < 0) return null;
  const local = cleaned.slice(0, at);
  const domain = cleaned.slice(at + 1);
  if (!local.startsWith(prefix) || domain === "") return null;
  const bits = fromBase32(local.slice(prefix.length));
  if (!bits) return null;
  const parsed = readIds(bits);
  if (!parsed) return null;
  const { ids, dataBits } = parsed;
  const macBits = macBitsFor(dataBits);
  const totalChars = Math.ceil((dataBits + macBits) / BITS_PER_TOKEN_CHAR);
  if (macBits < MIN_MAC_BITS || bits.length !== totalChars * BITS_PER_TOKEN_CHAR) return null;
  if (bits.slice(dataBits + macBits).some((bit) => bit !== 0)) return null; // canonical padding only
  const received = packBits(bits.slice(dataBits, dataBits + macBits));
  // The domain is inside the MAC, so a token moved to a foreign domain fails here.
  const secrets = typeof secret === "string" ? [secret] : secret;
  let isValid = false;
  for (const candidate of secrets) {
    const expected = computeMac(candidate, domain, ids, macBits, context);
    if (timingSafeEqual(expected, received)) isValid = true;
  }
  return isValid ? ids : null;
}

function macBitsFor(dataBits: number): number {
  return Math.min(MAX_MAC_BITS, MAX_TOKEN_BITS - dataBits);
}

function readIds(bits: number[]): { ids: ReturnPathIds; dataBits: number } | null {
  let offset = 0;
  const values: string[] = [];
  for (let n = 0; n < 2; n++) {
    if (offset + ID_LENGTH_BITS > bits.length) return null;
    const length = readNumber(bits, offset, ID_LENGTH_BITS);
    offset += ID_LENGTH_BITS;
    if (length === 0 || offset + length * BITS_PER_ID_CHAR > bits.length) return null;
    let value = "";
    for (let i = 0; i < length; i++, offset += BITS_PER_ID_CHAR) {
      value += ID_ALPHABET.charAt(readNumber(bits, offset, BITS_PER_ID_CHAR));
    }
    values.push(value);
  }
  const [messageId = "", recipientId = ""] = values;
  return { ids: { messageId, recipientId }, dataBits: offset };
}

/** Keyed hashers by secret (a server has one or two): keying HMAC once saves most of its cost. */
const KEYED = new Map<string, Bun.CryptoHasher>();
const MAX_KEYED = 8;

function keyedHasher(secret: string): Bun.CryptoHasher {
  let h = KEYED.get(secret);
  if (!h) {
    if (KEYED.size >= MAX_KEYED) KEYED.clear();
    KEYED.set(secret, (h = new Bun.CryptoHasher("sha256", secret)));
  }
  return h.copy();
}

function computeMac(secret: string, domain: string, ids: ReturnPathIds, macBits: number, context: string): Uint8Array {
  const digest = keyedHasher(secret)
    .update(`${context}\0${domain}\0${ids.messageId}\0${ids.recipientId}`)
    .digest();
  const bytes = new Uint8Array(Math.ceil(macBits / 8));
  bytes.set(digest.subarray(0, bytes.length));
  const spare = bytes.length * 8 - macBits;
  if (spare > 0) bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) & (0xff << spare);
  return bytes;
}

function writeNumber(bits: number[], value: number, width: number): void {
  for (let i = width - 1; i >= 0; i--) bits.push((value >> i) & 1);
}

function readNumber(bits: number[], offset: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = (value << 1) | (bits[offset + i] ?? 0);
  return value;
}

function packBits(bits: number[]): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (0x80 >> (i & 7));
  });
  return bytes;
}

function toBase32(bits: number[]): string {
  let out = "";
  for (let i = 0; i < bits.length; i += BITS_PER_TOKEN_CHAR) out += BASE32_ALPHABET.charAt(readNumber(bits, i, BITS_PER_TOKEN_CHAR));
  return out;
}

function fromBase32(token: string): number[] | null {
  if (token.length === 0 || token.length > MAX_TOKEN_CHARS) return null;
  const bits: number[] = [];
  for (const char of token) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) return null;
    writeNumber(bits, index, BITS_PER_TOKEN_CHAR);
  }
  return bits;
}
