// The inbound routing rules every vendor API configures, checked once here: Mailgun routes
// (account-wide), SendGrid Inbound Parse settings per hostname, SparkPost inbound domains and
// relay webhooks. A hostname must be one of the acting tenant's domains or a subdomain of one, a
// domain key sees and changes only its own domain's rules, and a rule belongs to one tenant (a
// route to the tenant that made it, the others to their domain's): no key sees another tenant's.
import type { Domain, Principal } from "../model.ts";
import { AppError, conflict, forbidden, invalid, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { AuditWriter } from "../audit.ts";
import { readTenant, seesTenant } from "../permissions.ts";
import { parseAction, parseExpression, RouteSyntaxError } from "./expression.ts";
import type { InboundRule, InboundRuleStore, RuleKind, RuleSpecs, StoredInbound } from "./model.ts";

export interface RuleDeps {
  rules: InboundRuleStore;
  /** The account's domain a hostname belongs to: itself or its nearest parent. */
  owningDomain(hostname: string): Promise<Domain | null>;
  /** A received message of `domain` by its storage key (null when unknown or expired). */
  storedMessage(domain: Domain, key: string): Promise<StoredInbound | null>;
  now(): number;
  /** Every route, parse setting, inbound domain and relay webhook made, changed or deleted is recorded. */
  audit?: AuditWriter;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const MAX_ACTIONS = 20;

export function checkUrl(url: string, field: string): string {
  let u: URL;
  try { u = new URL(url); } catch { throw invalid(`${field} must be an http or https URL`, field); }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw invalid(`${field} must be an http or https URL`, field);
  return url;
}

/** Checks a Mailgun route's expression and actions; forward URLs must be http(s). */
export function checkRoute(spec: RuleSpecs["route"]): RuleSpecs["route"] {
  if (!Number.isInteger(spec.priority) || spec.priority < 0) throw invalid("priority must be a non-negative integer", "priority");
  if (!spec.actions.length) throw invalid("at least one action is required", "action");
  if (spec.actions.length > MAX_ACTIONS) throw invalid(`at most ${MAX_ACTIONS} actions`, "action");
  try {
    parseExpression(spec.expression);
    for (const a of spec.actions.map(parseAction)) {
      if (a.kind === "forward" && !a.destination.includes("@")) checkUrl(a.destination.replace(/\\(g<\w+>|\d)/g, "x"), "action");
      if (a.kind === "store" && a.notify) checkUrl(a.notify, "action");
    }
  } catch (e) {
    if (e instanceof RouteSyntaxError) throw invalid(e.message, "expression");
    throw e;
  }
  return { ...spec, description: spec.description.slice(0, 500) };
}

export function createInboundRules(deps: RuleDeps) {
  // The store's writes, each followed by its audit entry ("inbound.create", target "route:<id>").
  const rules: InboundRuleStore = { ...deps.rules,
    async insertRule(r) { await deps.rules.insertRule(r); await deps.audit?.record("inbound.create", `${r.kind}:${r.id}`); },
    async updateRule(r) { const ok = await deps.rules.updateRule(r); if (ok) await deps.audit?.record("inbound.update", `${r.kind}:${r.id}`); return ok; },
    async deleteRule(kind, id) { const ok = await deps.rules.deleteRule(kind, id); if (ok) await deps.audit?.record("inbound.delete", `${kind}:${id}`); return ok; },
  };
  async function hostDomain(p: Principal, hostname: string, field: string): Promise<Domain> {
    const host = hostname.trim().toLowerCase();
    if (!HOSTNAME.test(host)) throw invalid(`${field} must be a host name`, field);
    const d = await deps.owningDomain(host);
    if (!d || (d.tenantId ?? 0) !== (p.tenant ?? 0)) throw invalid(`${host} is not one of this account's domains or a subdomain of one`, field);
    if (p.kind === "domain" && p.domain?.id !== d.id) throw forbidden(`this key may not configure ${host}`);
    return d;
  }

  const visible = (p: Principal, r: InboundRule) => seesTenant(p, r.tenantId)
    && (p.kind === "account" || (r.domainId !== null && r.domainId === p.domain?.id));

  async function find<K extends RuleKind>(p: Principal, kind: K, id: string): Promise<InboundRule<K>> {
    const r = await rules.getRule(kind, id);
    if (!r || !visible(p, r)) throw notFound(`${id} not found`);
    return r;
  }

  function accountOnly(p: Principal) {
    if (p.kind !== "account") throw forbidden("routes are account-wide: use an account key");
  }

  return {
    async list<K extends RuleKind>(p: Principal, kind: K): Promise<InboundRule<K>[]> {
      if (kind === "route") accountOnly(p);
      return (await rules.listRules(kind, readTenant(p))).filter((r) => visible(p, r));
    },
    get: <K extends RuleKind>(p: Principal, kind: K, id: string) => {
      if (kind === "route") accountOnly(p);
      return find(p, kind, id);
    },

    async createRoute(p: Principal, spec: RuleSpecs["route"]): Promise<InboundRule<"route">> {
      accountOnly(p);
      const rule = { id: newId(deps.now()), kind: "route" as const, domainId: null, tenantId: p.tenant ?? 0, spec: checkRoute(spec), createdAt: deps.now() };
      await rules.insertRule(rule);
      return rule;
    },
    async updateRoute(p: Principal, id: string, patch: Partial<RuleSpecs["route"]>): Promise<InboundRule<"route">> {
      accountOnly(p);
      const r = await find(p, "route", id);
      const next = { ...r, spec: checkRoute({ ...r.spec, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) }) };
      await rules.updateRule(next);
      return next;
    },

    /** SendGrid Inbound Parse: one setting per hostname. */
    async putParseSetting(p: Principal, spec: RuleSpecs["parse-setting"], create: boolean): Promise<InboundRule<"parse-setting">> {
      const hostname = spec.hostname.trim().toLowerCase();
      const d = await hostDomain(p, hostname, "hostname");
      checkUrl(spec.url, "url");
      const existing = await rules.getRule("parse-setting", hostname);
      if (create && existing) throw conflict(`a parse setting for ${hostname} already exists`);
      if (!create && !existing) throw notFound(`no parse setting for ${hostname}`);
      const rule = { id: hostname, kind: "parse-setting" as const, domainId: d.id, tenantId: d.tenantId ?? 0, spec: { ...spec, hostname }, createdAt: existing?.createdAt ?? deps.now() };
      await (existing ? rules.updateRule(rule) : rules.insertRule(rule));
      return rule;
    },

    async createInboundDomain(p: Principal, domain: string): Promise<InboundRule<"inbound-domain">> {
      const host = domain.trim().toLowerCase();
      const d = await hostDomain(p, host, "domain");
      if (await rules.getRule("inbound-domain", host)) throw conflict(`inbound domain ${host} already exists`);
      const rule = { id: host, kind: "inbound-domain" as const, domainId: d.id, tenantId: d.tenantId ?? 0, spec: { domain: host }, createdAt: deps.now() };
      await rules.insertRule(rule);
      return rule;
    },

    async putRelayWebhook(p: Principal, id: string | null, spec: Partial<RuleSpecs["relay-webhook"]>): Promise<InboundRule<"relay-webhook">> {
      const old = id ? await find(p, "relay-webhook", id) : null;
      const next = { name: "", target: "", authToken: "", matchDomain: "", protocol: "SMTP", ...old?.spec,
        ...Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) } as RuleSpecs["relay-webhook"];
      checkUrl(next.target, "target");
      if (next.name.length > 1024) throw invalid("name is too long", "name");
      const inbound = await rules.getRule("inbound-domain", next.matchDomain.toLowerCase());
      if (!inbound || !visible(p, inbound)) throw invalid(`match.domain ${next.matchDomain || "(none)"} is not an inbound domain`, "match.domain");
      const rule = { id: old?.id ?? newId(deps.now()), kind: "relay-webhook" as const, domainId: inbound.domainId, tenantId: inbound.tenantId ?? 0,
        spec: { ...next, matchDomain: next.matchDomain.toLowerCase() }, createdAt: old?.createdAt ?? deps.now() };
      await (old ? rules.updateRule(rule) : rules.insertRule(rule));
      return rule;
    },

    /** A stored message (Mailgun store()), for keys of its domain; expired ones are gone. */
    async stored(p: Principal, domainName: string, key: string): Promise<StoredInbound> {
      const d = await deps.owningDomain(domainName);
      if (!d || d.name !== domainName.toLowerCase() || !seesTenant(p, d.tenantId) || (p.kind === "domain" && p.domain?.id !== d.id)) throw notFound("Message not found");
      const m = await deps.storedMessage(d, key);
      if (!m || m.expiresAt <= deps.now()) throw notFound("Message not found");
      return m;
    },

    async remove(p: Principal, kind: RuleKind, id: string): Promise<void> {
      if (kind === "route") accountOnly(p);
      await find(p, kind, id);
      if (kind === "inbound-domain") {
        const hooks = (await rules.listRules("relay-webhook")).filter((h) => h.spec.matchDomain === id);
        if (hooks.length) throw new AppError("conflict", `inbound domain ${id} is used by relay webhook ${hooks[0]!.id}`);
      }
      await rules.deleteRule(kind, id);
    },
  };
}

export type InboundRules = ReturnType<typeof createInboundRules>;
