// The names a blocklist is asked under (RFC 5782 §2): an IPv4 address as reversed octets, an IPv6
// address as 32 reversed nibbles, a domain as itself, each followed by the zone. With a Spamhaus
// Data Query Service key, Spamhaus zones are asked under <key>.<list>.dq.spamhaus.net (Spamhaus's
// DQS naming: zen.spamhaus.org → <key>.zen.dq.spamhaus.net), since its public mirrors refuse
// queries from public resolvers (answer 127.255.255.254).
import { reversedLabels } from "../../dns.ts";
import type { BlocklistKind } from "../types.ts";

/** The zone actually asked for `zone` (the configured name, which reports keep using). */
export function askedZone(zone: string, dqsKey: string): string {
  const z = zone.toLowerCase().replace(/\.$/, "");
  const m = /^([a-z0-9-]+)\.spamhaus\.org$/.exec(z);
  return dqsKey && m ? `${dqsKey}.${m[1]}.dq.spamhaus.net` : z;
}

/** The question for `subject` in `zone`, or null when the subject cannot be asked there (not an address). */
export function queryName(subject: string, kind: BlocklistKind, zone: string): string | null {
  if (kind === "domain") return `${subject.toLowerCase().replace(/\.$/, "")}.${zone}`;
  const labels = reversedLabels(subject);
  return labels && `${labels}.${zone}`;
}

/** RFC 5782 §5: the entries every list answers for tests: [listed, not listed]. */
export const TEST_ENTRIES: Record<BlocklistKind, [string, string]> = { ip: ["127.0.0.2", "127.0.0.1"], domain: ["TEST", "INVALID"] };
