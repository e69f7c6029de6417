// API keys (account and domain kinds) and SMTP credentials: random secrets shown once, stored as
// hashes, compared in constant time; a key string → Principal. No caching: a revoke takes effect
// on the next request of a running server.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Domain, KeyKind, Principal } from "./model.ts";
import type { ControlStore, StoredKey } from "./store-port.ts";
import { newSecret } from "./ids.ts";
import { AppError, forbidden, invalid, notFound } from "./errors.ts";
import { actFor } from "./permissions.ts";
import type { AuditWriter } from "./audit.ts";
import { domainTenant } from "./tenants.ts";

/** Given SMTP passwords are at least this long; generated ones are 24 random characters. */
export const MIN_PASSWORD_LENGTH = 12;

let dummy: Promise<string> | null = null;
/** An Argon2id hash of nothing anyone knows, with the parameters of real credentials. */
const dummyHash = () => (dummy ??= Bun.password.hash(newSecret(16)));

const KEY_PATTERN = /^(pk|sk)\.([0-9a-z]{12})\.([0-9a-z]{32,})$/;
const TOUCH_FLUSH_MS = 30_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface KeyInfo {
  id: string;
  kind: KeyKind;
  domain: string | null;
  label: string;
  grants: string[];
  createdAt: number;
  lastUsedAt: number | null;
  /** The key's tenant; absent: 0, the primary. */
  tenant?: number;
}

export interface AccessDeps {
  control: ControlStore;
  now: () => number;
  /** The audit log's writer (audit.ts): every change to keys and credentials is recorded. */
  audit?: AuditWriter;
}

export function createAccessService({ control, now, audit }: AccessDeps) {
  const pendingTouches = new Map<string, number>();
  let lastFlush = 0;
  // The installation's one account: its id never changes once it exists (read per request before).
  let accountId: number | null = null;

  async function flushTouches(force = false) {
    if (!pendingTouches.size || (!force && now() - lastFlush < TOUCH_FLUSH_MS)) return;
    lastFlush = now();
    const batch = new Map(pendingTouches);
    pendingTouches.clear();
    await control.touchKeys(batch);
  }

  async function toInfo(k: StoredKey): Promise<KeyInfo> {
    const domain = k.domainId !== null ? await control.getDomainById(k.domainId) : null;
    return { id: k.id, kind: k.kind, domain: domain?.name ?? null, label: k.label, grants: k.grants, createdAt: k.createdAt,
      lastUsedAt: pendingTouches.get(k.id) ?? k.lastUsedAt, ...(k.tenantId ? { tenant: k.tenantId } : {}) };
  }

  async function principalOf(stored: StoredKey): Promise<Principal | null> {
    const domain = stored.domainId !== null ? await control.getDomainById(stored.domainId) : null;
    if (stored.kind === "domain" && !domain) return null;
    accountId ??= (await control.getAccount())?.id ?? null;
    pendingTouches.set(stored.id, now());
    // Last-used times are a convenience: a failed write must not fail (or crash) the request.
    void flushTouches().catch(() => undefined);
    return { accountId: accountId ?? 1, keyId: stored.id, kind: stored.kind, domain, grants: stored.grants };
  }

  /** The principal acting for its tenant or the one `ask` names; a terminated tenant's own keys no longer work. */
  async function acting(p: Principal, ownId: number, ask: { ref: string | null; readAllWithout: boolean } | undefined): Promise<Principal | null> {
    const own = await control.getTenant({ id: ownId });
    if (!own) return null;
    const ref = ask?.ref ?? null;
    const named = ref === null ? "absent" : await control.getTenant(/^\d{1,9}$/.test(ref) ? { id: Number(ref) } : { name: ref });
    const r = await actFor(p, own, named, ask?.readAllWithout ?? false, () => control.listDomains());
    if ("reason" in r && r.reason === "terminated") return null;
    if ("reason" in r) throw forbidden("this key may not act on behalf of that tenant");
    return r;
  }

  return {
    /** Creates a key and returns its secret: the only time it is ever visible. */
    async createKey(opts: { kind: KeyKind; domain?: string; label?: string; grants?: string[]; tenant?: number }): Promise<KeyInfo & { key: string }> {
      let domain: Domain | null = null;
      const tenant = opts.tenant ?? 0;
      if (opts.kind === "domain") {
        if (!opts.domain) throw invalid("a domain key needs a domain", "domain");
        domain = await control.getDomain(opts.domain);
        // Another tenant's domain is as unknown to this tenant as a missing one.
        if (!domain || (domain.tenantId ?? 0) !== tenant) throw notFound(`domain ${opts.domain} not found`);
      }
      const id = newSecret(8).slice(0, 12);
      const secret = newSecret(20);
      const stored: StoredKey = { id, kind: opts.kind, domainId: domain?.id ?? null, label: opts.label ?? "", grants: opts.grants ?? [],
        hash: sha256(secret), createdAt: now(), lastUsedAt: null, revokedAt: null, ...(tenant ? { tenantId: tenant } : {}) };
      await control.insertKey(stored);
      await audit?.record("key.create", id, tenant);
      return { ...(await toInfo(stored)), key: `${opts.kind === "account" ? "pk" : "sk"}.${id}.${secret}` };
    },

    /** `tenant`: only that tenant's keys (core/permissions.ts readTenant); undefined: every tenant's. */
    async listKeys(domain?: string, tenant?: number): Promise<KeyInfo[]> {
      const infos = await Promise.all((await control.listKeys(tenant)).map(toInfo));
      return domain ? infos.filter((k) => k.domain === domain) : infos;
    },

    async getKey(id: string): Promise<KeyInfo | null> {
      const k = await control.getKey(id);
      return k && k.revokedAt === null ? toInfo(k) : null;
    },

    /** Changes a key's label and/or grants (the secret stays); takes effect on its next request. */
    async updateKey(id: string, patch: { label?: string; grants?: string[] }): Promise<KeyInfo> {
      if (!(await control.updateKey(id, patch))) throw notFound(`key ${id} not found`);
      const k = (await control.getKey(id))!;
      // Under the key's own tenant, whoever changes it (the CLI acts for none).
      await audit?.record("key.update", id, k.tenantId ?? 0);
      return toInfo(k);
    },

    async revokeKey(id: string): Promise<void> {
      if (!(await control.revokeKey(id, now()))) throw notFound(`key ${id} not found`);
      await audit?.record("key.revoke", id, (await control.getKey(id))?.tenantId ?? 0);
    },

    /** Turns a presented key into a Principal, or null for anything unknown, malformed or revoked. */
    async authenticate(presented: string | null | undefined, ask?: { ref: string | null; readAllWithout: boolean }): Promise<Principal | null> {
      const m = presented ? KEY_PATTERN.exec(presented.trim()) : null;
      if (!m) return null;
      const stored = await control.getKey(m[2]!);
      if (!stored || stored.revokedAt !== null) return null;
      const a = Buffer.from(sha256(m[3]!));
      const b = Buffer.from(stored.hash);
      if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
      if ((m[1] === "pk") !== (stored.kind === "account")) return null;
      const p = await principalOf(stored);
      return p && acting(p, stored.tenantId ?? 0, ask);
    },

    /** The principal of a key already proven (a console session): null once it is revoked or its domain gone. */
    async principalForKey(id: string): Promise<Principal | null> {
      const stored = await control.getKey(id);
      const p = stored && stored.revokedAt === null ? await principalOf(stored) : null;
      return p && acting(p, stored!.tenantId ?? 0, undefined);
    },

    flushTouches: () => flushTouches(true),

    /** Adds or replaces an SMTP credential; returns the password (generated when not given). */
    async setCredential(domainName: string, login: string, password?: string): Promise<{ login: string; password: string }> {
      const domain = await control.getDomain(domainName);
      if (!domain) throw notFound(`domain ${domainName} not found`);
      const local = normalizeLogin(login, domain.name);
      const pass = password ?? newSecret(15); // 24 random base32 characters
      if (pass.length < MIN_PASSWORD_LENGTH || pass.length > 128) {
        throw invalid(`password must be ${MIN_PASSWORD_LENGTH} to 128 characters`, "password");
      }
      await control.upsertCredential({ domainId: domain.id, login: local, hash: await Bun.password.hash(pass), createdAt: now() });
      await audit?.record("credential.set", `${local}@${domain.name}`, domainTenant(domain));
      return { login: `${local}@${domain.name}`, password: pass };
    },

    async listCredentials(domainName: string) {
      const domain = await control.getDomain(domainName);
      if (!domain) throw notFound(`domain ${domainName} not found`);
      return (await control.listCredentials(domain.id)).map((c) => ({ login: `${c.login}@${domain.name}`, createdAt: c.createdAt }));
    },

    async deleteCredential(domainName: string, login: string) {
      const domain = await control.getDomain(domainName);
      if (!domain) throw notFound(`domain ${domainName} not found`);
      const local = normalizeLogin(login, domain.name);
      if (!(await control.deleteCredential(domain.id, local))) throw notFound(`credential ${login} not found`);
      await audit?.record("credential.delete", `${local}@${domain.name}`, domainTenant(domain));
    },

    /** SMTP AUTH: user is LOGIN@DOMAIN (as Mailgun's); returns the domain on success. */
    async authenticateSmtp(user: string, password: string): Promise<Domain | null> {
      const at = user.lastIndexOf("@");
      const domain = at > 0 ? await control.getDomain(user.slice(at + 1)) : null;
      const cred = domain ? await control.getCredential(domain.id, user.slice(0, at).toLowerCase()) : null;
      // The same hashing work whether or not the login exists: the answer time tells nothing.
      const ok = await Bun.password.verify(password, cred?.hash ?? (await dummyHash()));
      return ok && cred ? domain : null;
    },
  };
}

function normalizeLogin(login: string, domain: string): string {
  const lower = login.trim().toLowerCase();
  const local = lower.endsWith(`@${domain}`) ? lower.slice(0, -domain.length - 1) : lower;
  if (!/^[a-z0-9._+-]{1,64}$/.test(local)) throw new AppError("invalid", `invalid login "${login}"`, { field: "login" });
  return local;
}

export type AccessService = ReturnType<typeof createAccessService>;
