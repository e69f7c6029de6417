import { describe, expect, test } from "bun:test";
import { coveredBy, destinationOf } from "../../../src/mta/shaping/destination.ts";
import { BUILT_IN_PROVIDERS, DEFAULT_LIMITS } from "../../../src/mta/shaping/rules.ts";

const routes = { "routed.test": "127.0.0.1:2526", "yahoo.com": "127.0.0.2:2525" };
const custom = [{ name: "corp", match: ["corp.example"], limits: { ...DEFAULT_LIMITS, connections: 3 } }, ...BUILT_IN_PROVIDERS];

describe("destinationOf", () => {
  const table: [string, string, string[], Record<string, string>, string, string | null][] = [
    ["plain gmail address", "gmail.com", [], {}, "gmail", "gmail"],
    ["upper case", "GMail.COM", [], {}, "gmail", "gmail"],
    ["Workspace domain by its MX", "acme.example", ["aspmx.l.google.com", "alt1.aspmx.l.google.com"], {}, "gmail", "gmail"],
    ["gmail's own MX names", "gmail.com", ["gmail-smtp-in.l.google.com"], {}, "gmail", "gmail"],
    ["outlook consumer MX", "live.co.uk", ["eur.olc.protection.outlook.com"], {}, "outlook", "outlook"],
    ["yahoo MX", "frontier.example", ["mx-aol.mail.gm0.yahoodns.net"], {}, "yahoo", "yahoo"],
    ["icloud", "me.com", ["mx01.mail.icloud.com"], {}, "icloud", "icloud"],
    ["apple", "apple.com", [], {}, "apple", "apple"],
    ["a routed provider domain stays with its provider", "yahoo.com", [], routes, "yahoo", "yahoo"],
    ["a routed domain is its route", "routed.test", [], routes, "127.0.0.1:2526", null],
    ["the smarthost", "any.test", [], { "*": "Relay.Example:587" }, "relay.example:587", null],
    ["an MX host set, sorted, without the root dot", "small.test", ["mx2.small.test.", "mx1.small.test"], {}, "mx1.small.test,mx2.small.test", null],
    ["no MX known yet: the domain", "small.test", [], {}, "small.test", null],
    ["a suffix is a whole label", "notgmail.com", [], {}, "notgmail.com", null],
    ["a configured provider", "mail.corp.example", [], {}, "corp", "corp"],
  ];
  for (const [what, domain, mx, r, name, provider] of table) {
    test(what, () => {
      const d = destinationOf(domain, mx, r, what === "a configured provider" ? custom : BUILT_IN_PROVIDERS, DEFAULT_LIMITS);
      expect([d.name, d.provider]).toEqual([name, provider]);
    });
  }
  test("a provider's limits come with it, the default's otherwise", () => {
    expect(destinationOf("mail.corp.example", [], {}, custom, DEFAULT_LIMITS).limits.connections).toBe(3);
    expect(destinationOf("gmail.com", [], {}, BUILT_IN_PROVIDERS, DEFAULT_LIMITS).limits.messagesPerConnection).toBe(50);
    expect(destinationOf("x.test", [], {}, BUILT_IN_PROVIDERS, DEFAULT_LIMITS).limits).toBe(DEFAULT_LIMITS);
  });
  test("coveredBy is a suffix match on labels", () => {
    expect([coveredBy("google.com", "google.com"), coveredBy("a.google.com.", ".google.com"), coveredBy("xgoogle.com", "google.com")]).toEqual([true, true, false]);
  });
});
