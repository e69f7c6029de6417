// A seeded generator of hostile HTTP requests for the fuzz tests: every method on every mounted
// route (and unknown paths), path parameters with broken %-escapes, NUL bytes and lone
// surrogates, odd content types, deep or broken JSON, broken multipart, garbage keys. Fixed seed:
// a failure is reproduced by its index.

/** mulberry32: small, fast and good enough to pick cases. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}

export type Rng = ReturnType<typeof rng>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

const SEGMENTS = [
  "example.com", "second.test", "nowhere.test", "%ZZ", "%", "%E0%A4%A", "%ED%A0%80", "%00", "a%00b", "%C0%AF", "%FF%FE",
  "..", "%2e%2e", "%2F", "x".repeat(5000), "\u00e9", "%F0%9F%98%80", "a@b.c", "bounces", "1e9999", "-1", "null",
  "%25", "a%20b", "__proto__", "constructor", "%uD800", "%E2%80%AE",
];

const EXTRA_PATHS = ["/", "/v3", "/v9/x", "/api/v1", "/api/v1/%ZZ", "/%ZZ/messages", "/v3/%ED%A0%80/bounces/%ED%A0%80", "/t/%ZZ",
  "/t/x/y", "/a/b/hclick", "/healthz", "/metrics", "/docs", "/ui", "/ui/%ZZ", "/docs/%ZZ", "//api//v1//account", "/v3/mail/send/x"];

const CONTENT_TYPES = [
  "application/json", "application/json; charset=utf-16", "application/x-www-form-urlencoded", "multipart/form-data",
  "multipart/form-data; boundary=XYZ", "multipart/form-data; boundary=", "text/plain", "application/octet-stream",
  "message/rfc822", "application/xml", "*/*", "", "garbage", "application/json; charset=nope", "multipart/mixed; boundary=a",
];

function deepJson(r: Rng): string {
  const depth = r.pick([100, 1000, 50_000]);
  const open = r.pick(["[", "{\"a\":"]);
  const close = open === "[" ? "]" : "}";
  return open.repeat(depth) + "1" + close.repeat(r.next() < 0.5 ? depth : depth - 1);
}

const STRINGS = ["", "\u0000", "\ud800", "\udfff", "a\r\nBcc: x@y.z", "x".repeat(70_000), "<script>", "{{x}}", "%ZZ", "\u202e", "😀",
  "not an email", "a@b", "a@example.com", "r@dest.test"];

function jsonValue(r: Rng, depth: number): unknown {
  const k = r.int(depth > 3 ? 4 : 7);
  if (k === 0) return r.pick(STRINGS);
  if (k === 1) return r.pick([0, -1, 1e308, 3.5, Number.MAX_SAFE_INTEGER]);
  if (k === 2) return r.pick([true, false, null]);
  if (k === 3) return r.pick(["2020-13-45", "yes", "1", "[]"]);
  if (k === 4) return Array.from({ length: r.int(4) }, () => jsonValue(r, depth + 1));
  const keys = ["to", "from", "subject", "email", "recipients", "content", "personalizations", "address", "grants", "label", "url", "events",
    "name", "domain", "text", "html", "template_id", "substitution_data", "options", "__proto__", "constructor", "\u0000", "\ud800"];
  return Object.fromEntries(Array.from({ length: r.int(6) }, () => [r.pick(keys), jsonValue(r, depth + 1)]));
}

function multipart(r: Rng, boundary: string): string {
  const parts = Array.from({ length: r.int(5) }, () => {
    const name = r.pick(["to", "from", "text", "message", "attachment", "file", "o:tag", "h:X", "v:x", "recipient-variables", "\u0000"]);
    const filename = r.next() < 0.3 ? `; filename="${r.pick(["a.txt", "..\\..\\x", "\ud800", ""])}"` : "";
    return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename}\r\n\r\n${r.pick(STRINGS).slice(0, 2000)}\r\n`;
  });
  const end = r.pick([`--${boundary}--\r\n`, `--${boundary}`, "", `--other--\r\n`]);
  return parts.join("") + end;
}

function body(r: Rng, contentType: string): string | Uint8Array | undefined {
  const k = r.int(8);
  if (k === 0) return undefined;
  if (k === 1) return deepJson(r);
  if (k === 2) return JSON.stringify(jsonValue(r, 0)).slice(0, r.next() < 0.2 ? r.int(50) : undefined);
  if (k === 3) return multipart(r, /boundary=(\S+)/.exec(contentType)?.[1] ?? "XYZ");
  if (k === 4) return "to=%ZZ&from=a%00b&text=%ED%A0%80&" + "x=1&".repeat(r.int(3) * 5000);
  if (k === 5) return Uint8Array.from({ length: r.int(3000) }, () => r.int(256));
  if (k === 6) return "\ufeff" + JSON.stringify(jsonValue(r, 0));
  return r.pick(STRINGS);
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** One request: a mounted route with hostile parameters (or an odd path), an odd body and key. */
export function fuzzRequest(r: Rng, routes: readonly string[], keys: readonly (string | null)[]): FuzzRequest {
  const method = r.pick(METHODS);
  const template = r.next() < 0.9 ? r.pick(routes) : r.pick(EXTRA_PATHS);
  let path = template.replace(/:\w+/g, () => r.pick(SEGMENTS));
  if (r.next() < 0.3) path += `?${r.pick(["limit=-5", "limit=abc", "page=%ZZ", "p=%ED%A0%80", "a=" + "b".repeat(9000), "dns=maybe", "address=%00", "events=x,,y"])}`;
  const key = r.pick(keys);
  const headers: Record<string, string> = {};
  if (key !== null) {
    const kind = r.int(4);
    if (kind === 0) headers.authorization = `Bearer ${key}`;
    else if (kind === 1) headers.authorization = `Basic ${Buffer.from(`api:${key}`).toString("base64")}`;
    else if (kind === 2) headers.authorization = key;
    else headers["ov-token"] = key;
  }
  const contentType = r.pick(CONTENT_TYPES);
  if (contentType) headers["content-type"] = contentType;
  const b = method === "GET" || method === "HEAD" ? undefined : body(r, contentType);
  return { method, path, headers, body: b };
}
