// What a recipient's mail is shaped as: the provider whose `match` covers the recipient domain or
// one of its MX host names (suffix match), else the next hop (the [mta.routes] host:port, or the
// recipient domain's MX host set). Pure: the MX hosts come from the caller's look-up.
import type { ProviderRule, ShapingLimits } from "./rules.ts";

export interface Destination {
  /** The provider's name, or the next hop ("host:port" of a route, the MX hosts joined with ","). */
  name: string;
  provider: string | null;
  limits: ShapingLimits;
}

/** True when `name` is `suffix` or ends with "." + `suffix` (case-insensitive, trailing dots ignored). */
export function coveredBy(name: string, suffix: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  const s = suffix.toLowerCase().replace(/^\./, "").replace(/\.$/, "");
  return n === s || n.endsWith(`.${s}`);
}

const providerOf = (name: string, rules: ProviderRule[]) => rules.find((p) => p.match.some((m) => coveredBy(name, m))) ?? null;

/**
 * The destination of mail to `rcptDomain`. `mxHosts` are its MX host names when known ([] before
 * the look-up, or when a route applies); `routes` is [mta.routes]; `providers` are in priority
 * order (configured before built-in). The recipient domain is matched before the MX names: mail
 * sent through a route still belongs to the provider its recipient domain matches.
 */
export function destinationOf(rcptDomain: string, mxHosts: string[], routes: Readonly<Record<string, string>>,
  providers: ProviderRule[], defaults: ShapingLimits): Destination {
  const domain = rcptDomain.toLowerCase();
  const byName = providerOf(domain, providers) ?? mxHosts.map((h) => providerOf(h, providers)).find((p) => p) ?? null;
  if (byName) return { name: byName.name, provider: byName.name, limits: byName.limits };
  const route = routes[domain] ?? routes[rcptDomain] ?? routes["*"];
  if (route) return { name: route.trim().toLowerCase(), provider: null, limits: defaults };
  const hosts = [...new Set(mxHosts.map((h) => h.toLowerCase().replace(/\.$/, "")))].sort();
  return { name: hosts.length ? hosts.join(",") : domain, provider: null, limits: defaults };
}
