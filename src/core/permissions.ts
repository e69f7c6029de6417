// The one permission model of every HTTP surface and the console. A route declares what it needs
// (a right, which key kinds may call it, which path parameter names the domain it acts on); a key
// holds a kind, an optional domain and grants. `decide` compares the two, the same way for all.
// Grants are words of a vocabulary (postern's rights, or a vendor's, which the surfaces keep and
// pass in: src/api/grants.ts); grants.ts maps them onto rights. A key without grants holds every right.
import type { KeyKind, Principal } from "./model.ts";
import { ALL_RIGHTS, rightsOfGrants, type GrantVocabulary, type Right } from "./grants.ts";

export type { GrantVocabulary, Right } from "./grants.ts";
export { ALL_RIGHTS, isKnownGrant, rightsOfGrants } from "./grants.ts";

/** What a route needs. Declared once where the route is mounted (the `permission` option). */
export interface Permission {
  /** The right the key must hold; "any" lets every authenticated key in (a key-check endpoint). */
  right: Right | "any";
  /** Key kinds allowed; default both. Mailgun's sending keys, e.g., may only send. */
  keys?: KeyKind;
  /** Path parameter that names the domain the route acts on: a domain key must be that domain's. */
  domain?: string;
}

export type Refusal =
  | { reason: "kind"; need: KeyKind }
  | { reason: "right"; right: Right }
  | { reason: "domain"; domain: string };

/** The rights a principal holds (its grants mapped; none given: all of them). */
export function rightsOf(principal: Pick<Principal, "grants">, vocabulary: GrantVocabulary): ReadonlySet<Right> {
  return principal.grants.length ? rightsOfGrants(principal.grants, vocabulary) : ALL_RIGHTS;
}

/** Null when `principal` may call a route declaring `permission` with these path parameters. */
export function decide(principal: Principal, permission: Permission, params: Record<string, string | undefined>, vocabulary: GrantVocabulary): Refusal | null {
  if (permission.keys && principal.kind !== permission.keys) return { reason: "kind", need: permission.keys };
  if (permission.right !== "any" && !rightsOf(principal, vocabulary).has(permission.right)) return { reason: "right", right: permission.right };
  if (permission.domain && principal.kind === "domain") {
    const name = (params[permission.domain] ?? "").trim().toLowerCase();
    if (principal.domain?.name !== name) return { reason: "domain", domain: name };
  }
  return null;
}

/** A key as far as delegation cares: its kind, its domain (name) and its grants. */
export interface KeyShape {
  kind: KeyKind;
  domain: string | null;
  grants: string[];
}

/**
 * True when `principal` may create, change or revoke a key shaped like `target`: never a key with
 * more rights than its own, never an account key from a domain key, never another domain's key.
 */
export function mayManageKey(principal: Principal, target: KeyShape, vocabulary: GrantVocabulary): boolean {
  if (principal.kind === "domain" && (target.kind !== "domain" || target.domain !== principal.domain?.name)) return false;
  const mine = rightsOf(principal, vocabulary);
  const theirs = rightsOf(target, vocabulary);
  for (const r of theirs) if (!mine.has(r)) return false;
  return true;
}
