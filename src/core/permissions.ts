// The one permission model of every HTTP surface and the console. A route declares what it needs
// (a right, which key kinds may call it, which path parameter names the domain it acts on); a key
// holds a kind, an optional domain and grants. `decide` compares the two, the same way for all.
// Grants are words of a vocabulary (postern's rights, or a vendor's, which the surfaces keep and
// pass in: src/api/grants.ts); grants.ts maps them onto rights. A key without grants holds every right.
import type { Domain, KeyKind, Principal } from "./model.ts";
import { PRIMARY_TENANT, mayWrite, type Tenant } from "./tenants.ts";
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
  /** Only the primary account acting for itself, or a console user of every tenant (tenant management: subusers, subaccounts). */
  primary?: boolean;
}

/** A route of the installation's, not a tenant's: the primary's account principals acting for themselves, holding `right`. */
export const primaryOnly = (right: Right): Permission => ({ right, keys: "account", primary: true });
/** Reading tenants (subusers, subaccounts, the console's Tenants page) or every tenant's domains' health. */
export const PRIMARY_READ = primaryOnly("account.read");
/** Making, renaming, suspending tenants and setting their limits. */
export const PRIMARY_MANAGE = primaryOnly("account.manage");

export type Refusal =
  | { reason: "kind"; need: KeyKind }
  | { reason: "right"; right: Right }
  | { reason: "domain"; domain: string }
  /** A header named a tenant the key may not act for (or none such): nothing of it is shown. */
  | { reason: "tenant"; tenant: string }
  /** The acting tenant is suspended or terminated: reads only. */
  | { reason: "suspended"; tenant: number }
  /** The principal's own tenant is terminated: its keys and its users are done (no sign-in). */
  | { reason: "terminated"; tenant: number };

/** The primary acting for itself: its keys without a tenant header (or naming 0), console users of every tenant not switched to another. */
function primaryForItself(p: Pick<Principal, "tenant" | "onBehalf" | "membership">): boolean {
  return (p.tenant ?? PRIMARY_TENANT) === PRIMARY_TENANT && !p.onBehalf && p.membership !== PRIMARY_TENANT;
}

/** Rights that change something or send; a read-only (suspended) tenant holds none of them. */
const isWrite = (r: Right) => r === "mail.send" || r.endsWith(".manage");

/** The rights a principal holds (its grants mapped; none given: all of them). */
export function rightsOf(principal: Pick<Principal, "grants">, vocabulary: GrantVocabulary): ReadonlySet<Right> {
  return principal.grants.length ? rightsOfGrants(principal.grants, vocabulary) : ALL_RIGHTS;
}

/** Null when `principal` may call a route declaring `permission` with these path parameters. */
export function decide(principal: Principal, permission: Permission, params: Record<string, string | undefined>, vocabulary: GrantVocabulary): Refusal | null {
  if (permission.keys && principal.kind !== permission.keys) return { reason: "kind", need: permission.keys };
  // Among console users, only a membership of every tenant (one of tenant 0 is the primary's alone).
  if (permission.primary && !primaryForItself(principal)) return { reason: "tenant", tenant: String(principal.tenant ?? PRIMARY_TENANT) };
  if (permission.right !== "any" && !rightsOf(principal, vocabulary).has(permission.right)) return { reason: "right", right: permission.right };
  if (permission.right !== "any" && principal.readOnly && isWrite(permission.right)) return { reason: "suspended", tenant: principal.tenant ?? 0 };
  if (permission.domain) {
    const name = (params[permission.domain] ?? "").trim().toLowerCase();
    if (principal.kind === "domain" && principal.domain?.name !== name) return { reason: "domain", domain: name };
    if (principal.foreignDomains?.has(name)) {
      if (!principal.readAll) return { reason: "domain", domain: name };
      // A principal reading every tenant writes only for the tenant it acts for: a suspension holds,
      // and the change is in the owning tenant's audit log once the principal acts for it.
      if (permission.right !== "any" && isWrite(permission.right)) return { reason: "tenant", tenant: name };
    }
  }
  return null;
}

/**
 * The principal acting for a tenant (contract §14): `own` is the key's tenant, `named` the tenant a
 * vendor header named ("absent": no header; null: a name or id that is no tenant). Only a primary
 * account key acts on behalf of another tenant; a tenant key may name only itself. Without a
 * header the key acts for its own tenant, and a primary key reads every tenant where the surface
 * says so (`readAllWithout`: SparkPost). `domains` lists every domain (the store's).
 */
export function actFor(p: Principal, own: Tenant, named: Tenant | null | "absent", readAllWithout: boolean,
  domains: () => Promise<Domain[]>): Promise<Principal | Refusal> | Refusal {
  if (own.status === "terminated") return { reason: "terminated", tenant: own.id };
  if (named === null) return { reason: "tenant", tenant: "" };
  const acting = named === "absent" ? own : named;
  if (acting.id !== own.id && (own.id !== PRIMARY_TENANT || p.kind !== "account")) return { reason: "tenant", tenant: String(acting.id) };
  const readAll = named === "absent" && readAllWithout && own.id === PRIMARY_TENANT && p.kind === "account";
  return (async () => ({
    ...p, tenant: acting.id, readAll, readOnly: !mayWrite(acting),
    // Acting for a tenant other than its key's (or its user's) own: each such send is in the audit log (core/send.ts).
    ...(acting.id !== own.id ? { onBehalf: true } : {}),
    // A primary account principal that named no tenant: an account-wide SparkPost webhook it makes covers every tenant.
    ...(named === "absent" && own.id === PRIMARY_TENANT && p.kind === "account" ? { noTenantNamed: true } : {}),
    // Kept for a reader of every tenant too: it reads them (seesDomain), but writes only for its own (decide).
    foreignDomains: foreignOf(await domains(), acting.id),
  }))();
}

// The other tenants' domain names, per domain list and tenant: the store's cached read
// (core/domain-read.ts) hands out one list until a domain changes, so the set is built once per
// change and tenant, not once per request (thousands of domains made each request pay for it).
const foreignSets = new WeakMap<readonly Domain[], Map<number, ReadonlySet<string>>>();
function foreignOf(domains: readonly Domain[], tenant: number): ReadonlySet<string> {
  let byTenant = foreignSets.get(domains);
  if (!byTenant) foreignSets.set(domains, (byTenant = new Map()));
  let set = byTenant.get(tenant);
  if (!set) byTenant.set(tenant, (set = new Set(domains.filter((d) => (d.tenantId ?? PRIMARY_TENANT) !== tenant).map((d) => d.name))));
  return set;
}

/**
 * A console user (or a session of theirs) acting for a tenant, by the same rule as a key: a
 * membership of one tenant (`membership`) acts for that tenant only, read-only while it is
 * suspended, refused once it is terminated (its users cannot sign in); a membership of every
 * tenant (null) stands where a primary account key stands: it reads every tenant, or acts for the
 * tenant its session chose (`chosen`, the console's tenant switcher; "absent": none chosen).
 */
export function actForUser(p: Principal, membership: Tenant | null, primary: Tenant, chosen: Tenant | null | "absent",
  domains: () => Promise<Domain[]>): Promise<Principal | Refusal> | Refusal {
  if (membership === null) return actFor(p, primary, chosen, true, domains);
  // A membership of tenant 0 is of the primary alone: unlike a primary key, it acts for no other tenant.
  if (chosen !== "absent" && chosen?.id !== membership.id) return { reason: "tenant", tenant: String(chosen?.id ?? "") };
  return actFor(p, membership, "absent", false, domains);
}

/** The tenant whose rows a read covers: undefined for every tenant (readAll). Hand it to the store's filters. */
export const readTenant = (p: Pick<Principal, "tenant" | "readAll">): number | undefined => (p.readAll ? undefined : p.tenant ?? PRIMARY_TENANT);

/**
 * The audit log's tenant scope: every entry for the primary acting for itself (its account keys,
 * and users of every tenant); the acting tenant's entries for anyone else (a tenant's own key or
 * user, or the primary acting on a tenant's behalf), so no tenant reads another's acts.
 */
export const auditTenant = (p: Pick<Principal, "tenant" | "onBehalf" | "membership">): number | undefined =>
  primaryForItself(p) ? undefined : p.tenant ?? PRIMARY_TENANT;

/**
 * The console users a principal sees and manages, by the audit log's rule: every user for the
 * primary acting for itself (undefined); else only the users of the tenant it acts for, and a user
 * it invites is of that tenant. So no tenant's owner lists, changes or removes another's users, or
 * makes a user of every tenant.
 */
export const teamTenant = auditTenant;
/** True when `p` may see and manage the console user `u` (membership null: every tenant). */
export const managesUserOf = (p: Pick<Principal, "tenant" | "onBehalf" | "membership">, u: { tenant: number | null }) => {
  const t = teamTenant(p);
  return t === undefined || u.tenant === t;
};

/**
 * The operator's view: the primary's account principal acting for itself (its account keys without
 * a tenant header, console users of every tenant), which may look at every tenant's domains at once
 * (the doctor's run over every domain). Anyone else names one of its own domains.
 */
export const seesEveryTenant = (p: Pick<Principal, "kind" | "tenant" | "onBehalf" | "membership">) => p.kind === "account" && primaryForItself(p);

/**
 * The tenant whose account-wide things a principal makes, lists and changes (a native account
 * webhook, the key such a webhook is signed with): the tenant it acts for, so a tenant's key, or the
 * primary acting on its behalf, reaches that tenant's only, and the primary's own keys the primary's.
 */
export const accountTenant = (p: Pick<Principal, "tenant">): number => p.tenant ?? PRIMARY_TENANT;

/**
 * The tenant whose share of the installation's egress (source addresses, pools, their blocklist
 * notices) a principal sees: undefined, all of it, for the primary's own principals, since the
 * egress is the operator's ([mta.egress], [mta.pools]); else the tenant it acts for, which sees only
 * the pools its mail leaves through (core/tenant-pool.ts `poolsServing`) and neither changes nor
 * watches the installation's addresses.
 */
export const egressTenant = (p: Pick<Principal, "tenant">): number | undefined =>
  accountTenant(p) === PRIMARY_TENANT ? undefined : accountTenant(p);

/** True when `p` may see data of the domain named `name` (not another tenant's, unless it reads every tenant). */
export const seesDomain = (p: Pick<Principal, "foreignDomains" | "readAll">, name: string) => p.readAll === true || !p.foreignDomains?.has(name);

/** True when `p` may see a row of `tenant` (absent: the primary's). */
export const seesTenant = (p: Pick<Principal, "tenant" | "readAll">, tenant: number | undefined) =>
  p.readAll === true || (p.tenant ?? PRIMARY_TENANT) === (tenant ?? PRIMARY_TENANT);

/** True when `p` may change a row of `tenant`: its acting tenant's only, even when it reads every tenant (readAll). */
export const changesTenant = (p: Pick<Principal, "tenant">, tenant: number | undefined) =>
  (p.tenant ?? PRIMARY_TENANT) === (tenant ?? PRIMARY_TENANT);

/**
 * True when `p` may send for `domain`: acting for a tenant, only that tenant's domains (a principal of
 * every tenant, `readAll`, for all); acting for none (the CLI, a domain's SMTP credential), any.
 */
export const sendsFor = (p: Pick<Principal, "tenant" | "readAll">, domain: Pick<Domain, "tenantId">) =>
  p.tenant === undefined || seesTenant(p, domain.tenantId);

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
