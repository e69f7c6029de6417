// The check webhook creation makes (spec S2 Events 2): every URL gets a POST of a signed sample and
// must answer 2xx. Redirects are not followed (a receiver must be reachable where it says), and
// targets that are, or resolve to, loopback / private / link-local addresses are refused unless
// webhooks.allow_private is on: the one egress guard of events/egress.ts decides.
import type { Resolver } from "../../dns.ts";
import { checkEgress, guardedFetch } from "../../events/egress.ts";

export const CHECK_TIMEOUT_MS = 10_000;

export interface EgressPolicy { allowPrivate: boolean; resolver: Resolver }

/** Problems with the URL itself (scheme, private target); [] when it may be called. */
export async function checkWebhookUrl(value: string, policy: EgressPolicy): Promise<string[]> {
  let url: URL;
  try { url = new URL(value); } catch { return [`${value}: not a valid URL`]; }
  if (!/^https?:$/.test(url.protocol)) return [`${value}: only http and https URLs can receive webhooks`];
  const refused = await checkEgress(value, policy);
  return refused ? [`${value}: ${refused} (webhooks.allow_private is off)`] : [];
}

/** POSTs `payload` as JSON; resolves to the problem as text, or null when the endpoint answered 2xx. */
export async function probeWebhookUrl(url: string, payload: unknown, policy: EgressPolicy, timeoutMs = CHECK_TIMEOUT_MS): Promise<string | null> {
  try {
    const res = await guardedFetch(url, {
      method: "POST", headers: { "content-type": "application/json", "user-agent": "postern-webhook-check" }, body: JSON.stringify(payload),
    }, { ...policy, timeoutMs });
    await res.body?.cancel().catch(() => {});
    if (res.status >= 200 && res.status < 300) return null;
    return `${url}: the endpoint answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : ""}`;
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") return `${url}: no answer within ${Math.round(timeoutMs / 1000)} s`;
    return `${url}: could not be reached (${(err as Error)?.message ?? String(err)})`;
  }
}
