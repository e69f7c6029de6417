// Typo suggestions for the domain of an address (gmial.con → gmail.com): a fixed table for
// misspelt TLDs, then Damerau-Levenshtein distance against popular providers. Known real
// domains (popular or free lists) are never "corrected", so mail.com does not become gmail.com.
import { POPULAR_DOMAINS, TLD_TYPOS } from "./data/popular-domains.ts";
import { isFreeDomain } from "./lists.ts";

// The edit budget grows with the provider's first label: googlemail tolerates two edits, gmail
// one, and three-letter names (aol, msn, gmx, qq) none, because me.co, ail.com or 162.com are
// more often real domains than typos. TLD misspellings are handled by TLD_TYPOS instead.
const TWO_EDITS_MIN_NAME_CHARS = 8;
const ONE_EDIT_MIN_NAME_CHARS = 5;

// Suggestions are pure per domain and cost ~8 µs each; bulk lists repeat few domains.
const MAX_MEMO_DOMAINS = 10_000;

let popularSet: Set<string> | undefined;
const memoByDomain = new Map<string, string | null>();

/**
 * Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions),
 * giving up with `limit + 1` once every cell of a row exceeds `limit`.
 */
export function damerauLevenshtein(a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      }
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] as number;
}

function fixTld(domain: string): string {
  const dot = domain.lastIndexOf(".");
  if (dot < 0) return domain;
  const fixed = TLD_TYPOS[domain.slice(dot + 1)];
  return fixed ? `${domain.slice(0, dot + 1)}${fixed}` : domain;
}

function isKnownDomain(domain: string): boolean {
  popularSet ??= new Set(POPULAR_DOMAINS);
  return popularSet.has(domain) || isFreeDomain(domain);
}

function editBudget(candidate: string): number {
  const nameChars = candidate.indexOf(".");
  if (nameChars >= TWO_EDITS_MIN_NAME_CHARS) return 2;
  return nameChars >= ONE_EDIT_MIN_NAME_CHARS ? 1 : 0;
}

function closestPopular(domain: string): string | null {
  let best: string | null = null;
  let bestDistance = Number.MAX_SAFE_INTEGER;
  for (const candidate of POPULAR_DOMAINS) {
    const limit = editBudget(candidate);
    if (limit === 0) continue;
    const d = damerauLevenshtein(domain, candidate, limit);
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** The domain the writer probably meant, or null when `asciiDomain` looks intended. */
export function suggestDomain(asciiDomain: string): string | null {
  const domain = asciiDomain.toLowerCase();
  const memo = memoByDomain.get(domain);
  if (memo !== undefined) return memo;
  // Clearing wholesale is crude but bounded; the working set of domains is small in practice.
  if (memoByDomain.size >= MAX_MEMO_DOMAINS) memoByDomain.clear();
  const suggestion = computeSuggestion(domain);
  memoByDomain.set(domain, suggestion);
  return suggestion;
}

function computeSuggestion(domain: string): string | null {
  if (isKnownDomain(domain)) return null;
  const tldFixed = fixTld(domain);
  if (isKnownDomain(tldFixed)) return tldFixed;
  const closest = closestPopular(tldFixed);
  if (closest) return closest;
  return tldFixed === domain ? null : tldFixed;
}

/** `local@suggested-domain`, or null when the domain needs no correction. */
export function suggestAddress(localpart: string, asciiDomain: string): string | null {
  const domain = suggestDomain(asciiDomain);
  return domain ? `${localpart}@${domain}` : null;
}
