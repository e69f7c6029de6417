// The check webhook creation makes (spec S2 Events 2): every URL gets a POST of a signed sample and
// must answer 2xx. Redirects are not followed (a receiver must be reachable where it says), and
// literal loopback / private / link-local targets are refused unless webhooks.allow_private is on.
// TODO: a hostname that resolves to a private address is only caught by events/'s egress guard at
// delivery time; this surface has no resolver in SurfaceDeps to check it up front.

export const CHECK_TIMEOUT_MS = 10_000;

const PRIVATE_V4: [number, number][] = [
  [0x00000000, 8], [0x0a000000, 8], [0x7f000000, 8], [0x64400000, 10], [0xa9fe0000, 16], [0xac100000, 12],
  [0xc0a80000, 16], [0xc0000000, 24], [0xe0000000, 3],
];

function ipv4ToInt(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

const inRange = (ip: number, [base, bits]: [number, number]) => (ip >>> (32 - bits)) === (base >>> (32 - bits));

/** True for loopback, private, link-local, CGNAT, multicast and reserved literal addresses (and localhost names). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const v4 = ipv4ToInt(host);
  if (v4 !== null) return PRIVATE_V4.some((r) => inRange(v4, r));
  if (!host.includes(":")) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return isPrivateHost(mapped[1]!);
  // ::, ::1, fc00::/7 (unique local), fe80::/10 (link-local), ff00::/8 (multicast); IPv4-mapped hex form too.
  return host === "::" || host === "::1" || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)
    || /^ff[0-9a-f]{0,2}:/.test(host) || host.startsWith("::ffff:");
}

/** Problems with the URL itself (scheme, private target); [] when it may be called. */
export function checkWebhookUrl(value: string, allowPrivate: boolean): string[] {
  let url: URL;
  try { url = new URL(value); } catch { return [`${value}: not a valid URL`]; }
  if (!/^https?:$/.test(url.protocol)) return [`${value}: only http and https URLs can receive webhooks`];
  if (!allowPrivate && isPrivateHost(url.hostname)) return [`${value}: private, loopback and link-local addresses are refused (webhooks.allow_private is off)`];
  return [];
}

/** POSTs `payload` as JSON; resolves to the problem as text, or null when the endpoint answered 2xx. */
export async function probeWebhookUrl(url: string, payload: unknown, timeoutMs = CHECK_TIMEOUT_MS): Promise<string | null> {
  try {
    const res = await fetch(url, {
      method: "POST", redirect: "manual", signal: AbortSignal.timeout(timeoutMs),
      headers: { "content-type": "application/json", "user-agent": "postern-webhook-check" }, body: JSON.stringify(payload),
    });
    await res.body?.cancel().catch(() => {});
    if (res.status >= 200 && res.status < 300) return null;
    return `${url}: the endpoint answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : ""}`;
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") return `${url}: no answer within ${Math.round(timeoutMs / 1000)} s`;
    return `${url}: could not be reached (${(err as Error)?.message ?? String(err)})`;
  }
}
