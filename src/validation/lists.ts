// Membership tests against the domain and local-part lists: disposable (npm
// disposable-email-domains, exact + wildcard), free providers and role local parts (in data/).
// Each list becomes a Set once, on first use, so importing this file stays cheap: the disposable
// list (about 120,000 names, 10 MB of a server's memory) is not even loaded before then.
import { FREE_DOMAINS } from "./data/free-domains.ts";
import { ROLE_LOCAL_PARTS } from "./data/role-locals.ts";

let disposableSet: Set<string> | undefined;
let wildcardSet: Set<string> | undefined;
let freeSet: Set<string> | undefined;
let roleSet: Set<string> | undefined;

const lowerSet = (list: readonly string[]) => new Set(list.map((d) => d.toLowerCase()));

/** The domain itself, then each parent down to two labels: a.b.example.com → b.example.com → example.com. */
function* selfAndParents(domain: string): Generator<string> {
  let d = domain;
  for (;;) {
    yield d;
    const dot = d.indexOf(".");
    if (dot < 0 || d.indexOf(".", dot + 1) < 0) return;
    d = d.slice(dot + 1);
  }
}

/** True when `asciiDomain` (lower-case A-labels) or a parent is a known disposable-mail service. */
export function isDisposableDomain(asciiDomain: string): boolean {
  disposableSet ??= lowerSet(require("disposable-email-domains") as string[]);
  wildcardSet ??= lowerSet(require("disposable-email-domains/wildcard.js") as string[]);
  if (disposableSet.has(asciiDomain)) return true;
  // Wildcard entries hand out any subdomain (user.33mail.com), and many services do the same
  // without being listed as wildcards, so parents count for both lists.
  for (const d of selfAndParents(asciiDomain)) {
    if (wildcardSet.has(d) || disposableSet.has(d)) return true;
  }
  return false;
}

/** True when `asciiDomain` is a free consumer mailbox provider. */
export function isFreeDomain(asciiDomain: string): boolean {
  freeSet ??= lowerSet(FREE_DOMAINS);
  return freeSet.has(asciiDomain);
}

/** The local part reduced to what role matching compares: no quotes, no +tag, no . - _ */
export function toRoleKey(localpart: string): string {
  const unquoted = localpart.startsWith('"') ? localpart.slice(1, -1) : localpart;
  const plus = unquoted.indexOf("+");
  const base = plus > 0 ? unquoted.slice(0, plus) : unquoted;
  return base.toLowerCase().replace(/[._-]/g, "");
}

/** True when the local part names a function (postmaster, info, noreply…) rather than a person. */
export function isRoleLocalPart(localpart: string): boolean {
  roleSet ??= lowerSet(ROLE_LOCAL_PARTS);
  return roleSet.has(toRoleKey(localpart));
}
