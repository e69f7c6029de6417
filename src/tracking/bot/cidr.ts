// IP address and CIDR parsing (IPv4, IPv6, IPv4-mapped IPv6) and a longest-prefix matcher.
// The matcher is a binary trie built once; a lookup walks at most 32 or 128 bits and allocates
// only the parsed address, so classifying tens of thousands of events per second stays cheap.

export interface ParsedIp {
  version: 4 | 6;
  /** 4 bytes for IPv4, 16 for IPv6; IPv4-mapped IPv6 (::ffff:a.b.c.d) is returned as IPv4. */
  bytes: Uint8Array;
}

export interface ParsedCidr {
  ip: ParsedIp;
  prefix: number;
}

export interface IpRangeMatcher<T> {
  /** The value of the most specific range containing `ip`, or undefined (also for unparsable input). */
  lookup(ip: string): T | undefined;
  /** Number of ranges inserted. */
  readonly size: number;
}

const IPV4_BITS = 32;
const IPV6_BITS = 128;
const MAX_IPV6_GROUPS = 8;

/** Parses a dotted-quad IPv4 address; rejects leading zeros because some stacks read them as octal. */
function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? "";
    if (part.length === 0 || part.length > 3 || !/^\d+$/.test(part)) return undefined;
    if (part.length > 1 && part.startsWith("0")) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

function parseHexGroups(text: string, into: number[]): boolean {
  if (text === "") return true;
  for (const group of text.split(":")) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return false;
    into.push(parseInt(group, 16));
  }
  return true;
}

/** Parses an IPv6 address with optional `::`, embedded IPv4 tail, brackets and zone id. */
function parseIpv6(input: string): Uint8Array | undefined {
  let text = input;
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: Uint8Array | undefined;
  const lastColon = text.lastIndexOf(":");
  if (text.indexOf(".", lastColon) > lastColon) {
    tail = parseIpv4(text.slice(lastColon + 1));
    if (!tail) return undefined;
    text = text.slice(0, lastColon + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head: number[] = [];
  const rest: number[] = [];
  if (!parseHexGroups(halves[0] ?? "", head)) return undefined;
  if (halves.length === 2 && !parseHexGroups(halves[1] ?? "", rest)) return undefined;
  const missing = MAX_IPV6_GROUPS - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tail) bytes.set(tail, 12);
  return bytes;
}

function isIpv4Mapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/** Parses an IPv4 or IPv6 address; returns undefined for anything else. */
export function parseIp(text: string): ParsedIp | undefined {
  const trimmed = text.trim();
  if (trimmed.includes(":")) {
    const bytes = parseIpv6(trimmed);
    if (!bytes) return undefined;
    return isIpv4Mapped(bytes) ? { version: 4, bytes: bytes.slice(12) } : { version: 6, bytes };
  }
  const bytes = parseIpv4(trimmed);
  return bytes ? { version: 4, bytes } : undefined;
}

/** Parses `addr/prefix` (or a bare address as a host route); host bits are ignored, not rejected. */
export function parseCidr(text: string): ParsedCidr | undefined {
  const slash = text.indexOf("/");
  const addr = slash >= 0 ? text.slice(0, slash) : text;
  const ip = parseIp(addr);
  if (!ip) return undefined;
  const maxBits = ip.version === 4 ? IPV4_BITS : IPV6_BITS;
  if (slash < 0) return { ip, prefix: maxBits };
  const prefixText = text.slice(slash + 1).trim();
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  let prefix = Number(prefixText);
  // A mapped IPv6 CIDR such as ::ffff:10.0.0.0/104 covers the IPv4 /8 it embeds.
  if (ip.version === 4 && addr.includes(":")) prefix -= IPV6_BITS - IPV4_BITS;
  if (prefix < 0 || prefix > maxBits) return undefined;
  return { ip, prefix };
}

/** Bit `index` (0 = most significant) of an address. */
function bitAt(bytes: Uint8Array, index: number): number {
  return ((bytes[index >> 3] ?? 0) >> (7 - (index & 7))) & 1;
}

interface Trie<T> {
  zero: number[];
  one: number[];
  values: (T | undefined)[];
}

function createTrie<T>(): Trie<T> {
  return { zero: [-1], one: [-1], values: [undefined] };
}

function insert<T>(trie: Trie<T>, bytes: Uint8Array, prefix: number, value: T): void {
  let node = 0;
  for (let i = 0; i < prefix; i++) {
    const branch = bitAt(bytes, i) === 0 ? trie.zero : trie.one;
    let next = branch[node] ?? -1;
    if (next < 0) {
      next = trie.values.length;
      trie.zero.push(-1);
      trie.one.push(-1);
      trie.values.push(undefined);
      branch[node] = next;
    }
    node = next;
  }
  trie.values[node] = value;
}

function longestMatch<T>(trie: Trie<T>, bytes: Uint8Array, maxBits: number): T | undefined {
  let node = 0;
  let best = trie.values[0];
  for (let i = 0; i < maxBits; i++) {
    const next = (bitAt(bytes, i) === 0 ? trie.zero : trie.one)[node] ?? -1;
    if (next < 0) break;
    node = next;
    const value = trie.values[node];
    if (value !== undefined) best = value;
  }
  return best;
}

/**
 * Builds a longest-prefix matcher from `[cidr, value]` pairs. Throws on a malformed CIDR because
 * the tables are shipped data: a typo there is a bug to fail loudly on, not an outcome to carry.
 */
export function createIpRangeMatcher<T>(entries: Iterable<readonly [string, T]>): IpRangeMatcher<T> {
  const v4 = createTrie<T>();
  const v6 = createTrie<T>();
  let size = 0;
  for (const [cidr, value] of entries) {
    const parsed = parseCidr(cidr);
    if (!parsed) throw new Error(`invalid CIDR in IP range table: ${cidr}`);
    insert(parsed.ip.version === 4 ? v4 : v6, parsed.ip.bytes, parsed.prefix, value);
    size++;
  }
  return {
    size,
    lookup(ip: string): T | undefined {
      const parsed = parseIp(ip);
      if (!parsed) return undefined;
      return parsed.version === 4
        ? longestMatch(v4, parsed.bytes, IPV4_BITS)
        : longestMatch(v6, parsed.bytes, IPV6_BITS);
    },
  };
}
