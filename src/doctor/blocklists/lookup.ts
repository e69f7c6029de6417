// The blocklist look-ups of one run: each zone first passes its RFC 5782 §5 self-test (the test
// entry listed, the other not), asked once per run; a zone that fails it (a refused resolver, a
// dead list, a wildcard answering everything) gives `unknown` for every subject, with the cause.
import type { Resolver } from "../../dns.ts";
import { looked } from "../lookup.ts";
import type { BlocklistAnswer, BlocklistKind, BlocklistLookup } from "../types.ts";
import { classify, type Classified } from "./answer.ts";
import { askedZone, queryName, TEST_ENTRIES } from "./query.ts";

export interface BlocklistZones { ip_zones: readonly string[]; domain_zones: readonly string[]; spamhaus_dqs_key: string }

async function ask(resolver: Resolver, subject: string, kind: BlocklistKind, zone: string): Promise<Classified> {
  const name = queryName(subject, kind, zone);
  if (!name) return { state: "unknown", answer: "", cause: `${subject} is not an IP address` };
  return classify(await looked(() => resolver.a(name)));
}

/** null when the zone answers its test entries as RFC 5782 says; else why not. */
async function selfTest(resolver: Resolver, kind: BlocklistKind, zone: string): Promise<string | null> {
  const [listed, unlisted] = TEST_ENTRIES[kind];
  const [a, b] = await Promise.all([ask(resolver, listed, kind, zone), ask(resolver, unlisted, kind, zone)]);
  if (a.state !== "listed") return `the zone failed its RFC 5782 self-test: ${listed} is ${a.state}${a.cause ? ` (${a.cause})` : ""}`;
  if (b.state !== "clear") return `the zone failed its RFC 5782 self-test: ${unlisted} is ${b.state}${b.cause ? ` (${b.cause})` : ` (${b.answer})`}`;
  return null;
}

export function createBlocklistLookup(resolver: Resolver, zones: BlocklistZones): BlocklistLookup {
  const tests = new Map<string, Promise<string | null>>();
  const zonesOf = (kind: BlocklistKind) => (kind === "ip" ? zones.ip_zones : zones.domain_zones);
  return {
    async ask(subject, kind): Promise<BlocklistAnswer[]> {
      return Promise.all(zonesOf(kind).map(async (zone) => {
        const asked = askedZone(zone, zones.spamhaus_dqs_key);
        const key = `${kind} ${asked}`;
        if (!tests.has(key)) tests.set(key, selfTest(resolver, kind, asked));
        const failed = await tests.get(key)!;
        const c = failed ? { state: "unknown" as const, answer: "", cause: failed } : await ask(resolver, subject, kind, asked);
        return { subject, kind, zone, ...c };
      }));
    },
  };
}
