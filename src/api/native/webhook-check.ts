// The check webhook creation makes (spec S2 Events 2): every URL gets a POST of a signed sample and
// must answer 2xx. Redirects are not followed (a receiver must be reachable where it says), and
// targets that are, or resolve to, loopback / private / link-local addresses are refused unless
// webhooks.allow_private is on: the pinned egress of webhooks/outbound.ts decides.
import type { Outbound } from "../../webhooks/outbound.ts";
import { FORMAT } from "../../webhooks/registry.ts";

/** Problems with the URL itself (scheme, private target); [] when it may be called. */
export async function checkWebhookUrl(value: string, outbound: Outbound): Promise<string[]> {
  let url: URL;
  try { url = new URL(value); } catch { return [`${value}: not a valid URL`]; }
  if (!/^https?:$/.test(url.protocol)) return [`${value}: only http and https URLs can receive webhooks`];
  const refused = await outbound.check(value);
  return refused ? [`${value}: ${refused} (webhooks.allow_private is off)`] : [];
}

/** POSTs `payload` as JSON; resolves to the problem as text, or null when the endpoint answered 2xx. */
export async function probeWebhookUrl(url: string, domain: string, payload: unknown, outbound: Outbound, tenant?: number): Promise<string | null> {
  try {
    const res = await outbound.ping(FORMAT.native, { url, domain, target: null, ...(tenant === undefined ? {} : { tenant }) }, payload);
    if (res.ok) return null;
    return `${url}: the endpoint answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : ""}`;
  } catch (err) {
    const e = err as Error;
    if (e?.name === "TimeoutError" || e?.name === "AbortError") return `${url}: ${e.message}`;
    return `${url}: could not be reached (${e?.message ?? String(err)})`;
  }
}
