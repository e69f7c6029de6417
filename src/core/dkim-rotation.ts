// The DKIM key lifecycle (contract §13): pending → active → retiring → retired. A rotation adds a
// pending key under a new selector for each algorithm the domain signs with; it signs new mail
// only once its TXT is seen with the right value (promotePending: on a tick and from the doctor's
// dkim check), and the key it replaces stays published, unused, for retire_after. Which key signs
// is answered by dkim-keys.ts signingKeys() alone.
import type { DkimKey, Domain } from "./model.ts";
import type { ControlStore } from "./store-port.ts";
import type { Resolver } from "../dns.ts";
import type { AuditWriter } from "./audit.ts";
import { domainTenant } from "./tenants.ts";
import { conflict, invalid, notFound } from "./errors.ts";
import { dkimKeyFromPem, dkimRecordValue, dkimState, generateDkimKey, publishedDkimKeys, selectorFor, signingKeys } from "./dkim-keys.ts";
import { checkRecords } from "./domain-dns.ts";

type Algorithm = DkimKey["algorithm"];
const HOUR = 3_600_000;
const TICK_MS = 5 * 60_000;

export interface DkimPendingObservation { rule: "dkim_pending"; subject: string; value?: number; firing?: boolean }

export interface DkimRotationDeps {
  control: Pick<ControlStore, "getDomain" | "listDomains" | "getDkimKeys" | "insertDkimKey" | "updateDkimKey">;
  /** Honours [mta] dns_servers; asked afresh (a cached miss would hold a key back). */
  resolver: Resolver;
  now: () => number;
  /** [dkim] rotate_after (0: never automatically) and retire_after, in ms. */
  rotateAfterMs: number;
  retireAfterMs: number;
  /** Each pending key's hours of waiting, and `firing: false` once it is active (the dkim_pending alert). */
  observe?: (o: DkimPendingObservation) => unknown | Promise<unknown>;
  onError?: (e: unknown) => void;
  /** Every key change asked for by someone (rotate, add, activate, deactivate) is recorded. */
  audit?: AuditWriter;
}

/** `domain dkim list --json`'s shape of one key. */
export interface DkimKeyView {
  selector: string; algorithm: Algorithm; state: string; created_at: string | null; activated_at: string | null; retire_at: string | null;
  record: { name: string; value: string };
}

/** A selector is a DNS name under _domainkey (RFC 6376 §3.1): labels of letters, digits and hyphens. */
const SELECTOR = /^(?=.{1,63}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);
const recordName = (k: Pick<DkimKey, "selector">, domain: string) => `${k.selector}._domainkey.${domain}`;

export function dkimKeyView(k: DkimKey, domain: string): DkimKeyView {
  return { selector: k.selector, algorithm: k.algorithm, state: dkimState(k), created_at: iso(k.createdAt), activated_at: iso(k.activatedAt),
    retire_at: iso(k.retireAt), record: { name: recordName(k, domain), value: dkimRecordValue(k) } };
}

/** A dated selector (s + UTC day), with -2, -3… when that day already has one; Ed25519's ends in "e". */
export function newSelectorBase(keys: Pick<DkimKey, "selector">[], at: number): string {
  const day = `s${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}`;
  const taken = new Set(keys.map((k) => k.selector));
  for (let n = 1; ; n++) {
    const base = n === 1 ? day : `${day}-${n}`;
    if (!taken.has(base) && !taken.has(`${base}e`)) return base;
  }
}

export function createDkimRotation(deps: DkimRotationDeps) {
  const { control, now } = deps;

  async function domainOf(name: string): Promise<Domain> {
    const d = await control.getDomain(name);
    if (!d) throw notFound(`domain ${name} not found`);
    return d;
  }

  /** Makes `key` the signing key of its algorithm; the active key it replaces starts retiring. */
  async function activate(d: Domain, keys: DkimKey[], key: DkimKey, at: number) {
    for (const old of keys) {
      if (old.algorithm === key.algorithm && old.selector !== key.selector && dkimState(old) === "active") {
        await control.updateDkimKey(d.id, old.selector, { state: "retiring", retireAt: at + deps.retireAfterMs });
      }
    }
    await control.updateDkimKey(d.id, key.selector, { state: "active", activatedAt: at });
    await deps.observe?.({ rule: "dkim_pending", subject: recordName(key, d.name), value: 0, firing: false });
  }

  /** Adds a pending key per algorithm the domain signs with (a pending one already waiting is kept). */
  async function addPending(d: Domain, keys: DkimKey[], at: number): Promise<DkimKey[]> {
    const signing = signingKeys(keys);
    const algorithms: Algorithm[] = signing.length ? [...new Set(signing.map((k) => k.algorithm))] : ["rsa-sha256", "ed25519-sha256"];
    const base = newSelectorBase(keys, at);
    const out: DkimKey[] = [];
    for (const algorithm of algorithms) {
      const waiting = keys.find((k) => k.algorithm === algorithm && dkimState(k) === "pending");
      if (waiting) { out.push(waiting); continue; }
      const key: DkimKey = { ...(await generateDkimKey(algorithm, selectorFor(algorithm, base))), domainId: d.id, state: "pending",
        createdAt: at, activatedAt: null, retireAt: null };
      if (!(await control.insertDkimKey({ ...key, state: "pending", createdAt: at }))) {
        // Another node's tick rotated at the same moment: its pending key is the one to keep.
        const theirs = (await control.getDkimKeys(d.id)).find((k) => k.algorithm === algorithm && dkimState(k) === "pending");
        if (!theirs) throw conflict(`selector ${key.selector} is taken`);
        out.push(theirs);
        continue;
      }
      out.push(key);
    }
    return out;
  }

  /** Is the pending key's TXT there with our p=? Unknown (DNS failed) counts as not yet. */
  async function seen(d: Domain, k: DkimKey): Promise<boolean> {
    const [r] = await checkRecords([{ type: "TXT", name: recordName(k, d.name), value: dkimRecordValue(k), purpose: "dkim", required: false }], deps.resolver);
    return r?.valid === "valid";
  }

  /** One domain's step: pending keys seen in DNS activate, retiring keys past retire_at retire, old keys get successors. */
  async function promoteDomain(d: Domain, at: number): Promise<void> {
    let keys = await control.getDkimKeys(d.id);
    for (const k of keys.filter((x) => dkimState(x) === "pending")) {
      if (await seen(d, k)) await activate(d, keys, k, at);
      else await deps.observe?.({ rule: "dkim_pending", subject: recordName(k, d.name), value: Math.floor((at - (k.createdAt ?? at)) / HOUR) });
    }
    keys = await control.getDkimKeys(d.id);
    for (const k of keys) {
      if (dkimState(k) === "retiring" && (k.retireAt ?? 0) <= at) await control.updateDkimKey(d.id, k.selector, { state: "retired" });
    }
    const due = deps.rotateAfterMs > 0 && signingKeys(keys).some((k) => at - (k.activatedAt ?? k.createdAt ?? at) >= deps.rotateAfterMs);
    if (due && !keys.some((k) => dkimState(k) === "pending")) await addPending(d, keys, at);
  }

  async function promotePending(at = now()): Promise<void> {
    for (const d of await control.listDomains()) {
      try { await promoteDomain(d, at); } catch (e) { deps.onError?.(e); }
    }
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> = Promise.resolve();
  return {
    promotePending,
    /** `domain dkim rotate NAME [--now]`: the new keys; with `now`, active at once (no DNS wait). */
    async rotate(name: string, opts: { now?: boolean } = {}): Promise<DkimKeyView[]> {
      const d = await domainOf(name);
      const at = now();
      const keys = await control.getDkimKeys(d.id);
      const added = await addPending(d, keys, at);
      if (opts.now) for (const k of added) await activate(d, await control.getDkimKeys(d.id), k, at);
      await deps.audit?.record(opts.now ? "domain.dkim_rotate_now" : "domain.dkim_rotate", d.name, domainTenant(d));
      const fresh = await control.getDkimKeys(d.id);
      return added.map((k) => dkimKeyView(fresh.find((f) => f.selector === k.selector) ?? k, d.name));
    },
    async list(name: string): Promise<DkimKeyView[]> {
      const d = await domainOf(name);
      return (await control.getDkimKeys(d.id)).map((k) => dkimKeyView(k, d.name));
    },
    /** The doctor's dkim check: promotes this domain's pending keys first, then every published selector. */
    async published(name: string): Promise<{ selector: string; record: string; pending: boolean }[]> {
      const d = await control.getDomain(name);
      if (!d) return [];
      await promoteDomain(d, now());
      return publishedDkimKeys(await control.getDkimKeys(d.id)).map((k) => ({ selector: k.selector, record: dkimRecordValue(k), pending: dkimState(k) === "pending" }));
    },
    /** Adds one pending key under `selector`: generated (RSA-2048), or the given PEM (RSA or Ed25519). */
    async addKey(name: string, selector: string, opts: { pem?: string } = {}): Promise<DkimKeyView> {
      const d = await domainOf(name);
      if (!SELECTOR.test(selector)) throw invalid(`selector "${selector}" is not a DNS label`, "selector");
      const made = opts.pem ? dkimKeyFromPem(opts.pem, selector.toLowerCase()) : await generateDkimKey("rsa-sha256", selector.toLowerCase());
      if (!made) throw invalid("pem is not an RSA or Ed25519 private key", "pem");
      const key: DkimKey = { ...made, domainId: d.id, state: "pending", createdAt: now(), activatedAt: null, retireAt: null };
      if (!(await control.insertDkimKey({ ...key, state: "pending", createdAt: key.createdAt! }))) throw conflict(`domain ${d.name} already has selector ${key.selector}`);
      await deps.audit?.record("domain.dkim_add", `${d.name}/${key.selector}`, domainTenant(d));
      return dkimKeyView(key, d.name);
    },
    /** The keys of `tenant`'s domains (core/permissions.ts readTenant; undefined: every domain's), for the vendor listings that span domains. */
    async listAll(tenant?: number): Promise<(DkimKeyView & { domain: string })[]> {
      const out: (DkimKeyView & { domain: string })[] = [];
      for (const d of await control.listDomains(tenant)) out.push(...(await control.getDkimKeys(d.id)).map((k) => ({ ...dkimKeyView(k, d.name), domain: d.name })));
      return out;
    },
    /** Signs with this key from now on (no DNS wait); the one it replaces retires. */
    async activateSelector(name: string, selector: string): Promise<DkimKeyView> {
      const d = await domainOf(name);
      const keys = await control.getDkimKeys(d.id);
      const k = keys.find((x) => x.selector === selector && dkimState(x) !== "retired");
      if (!k) throw notFound(`domain ${name} has no key ${selector}`);
      if (dkimState(k) !== "active") await activate(d, keys, k, now());
      await deps.audit?.record("domain.dkim_activate", `${d.name}/${selector}`, domainTenant(d));
      return dkimKeyView((await control.getDkimKeys(d.id)).find((x) => x.selector === selector)!, d.name);
    },
    /** Stops signing with this key: it stays published for retire_after, then retires. */
    async deactivateSelector(name: string, selector: string): Promise<DkimKeyView> {
      const d = await domainOf(name);
      const k = (await control.getDkimKeys(d.id)).find((x) => x.selector === selector && dkimState(x) !== "retired");
      if (!k) throw notFound(`domain ${name} has no key ${selector}`);
      if (dkimState(k) !== "retiring") await control.updateDkimKey(d.id, selector, { state: "retiring", retireAt: now() + deps.retireAfterMs });
      await deps.audit?.record("domain.dkim_deactivate", `${d.name}/${selector}`, domainTenant(d));
      return dkimKeyView((await control.getDkimKeys(d.id)).find((x) => x.selector === selector)!, d.name);
    },
    start() {
      if (timer) return;
      const tick = () => { running = running.then(() => promotePending()).catch((e) => deps.onError?.(e)); };
      tick();
      timer = setInterval(tick, TICK_MS);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type DkimRotation = ReturnType<typeof createDkimRotation>;
