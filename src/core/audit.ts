// The audit log's one writer (contract §14): the core services that change things (keys,
// credentials, domains, users, webhooks, suppressions, settings) call `record` after a change
// succeeded; who acted and from where comes from the current scene (actor.ts). Reads serve
// GET /audit, `postern audit` and the console page in one shape.
import type { AuditQuery, AuditRecord, AuditStore } from "./audit-port.ts";
import { currentActor, type ActorKind } from "./actor.ts";
import { invalid } from "./errors.ts";

export type { AuditRecord, AuditStore } from "./audit-port.ts";

/** One entry as every surface shows it. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: ActorKind; id: string };
  tenant: number;
  action: string;
  target: string;
  ip: string;
}

export interface AuditFilter {
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  limit?: string | number;
  cursor?: string;
}

const KINDS: ActorKind[] = ["user", "key", "cli"];
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export const auditEntry = (r: AuditRecord): AuditEntry => ({
  id: String(r.id), at: new Date(r.at).toISOString(), actor: { kind: r.actorKind, id: r.actorId }, tenant: r.tenant,
  action: r.action, target: r.target, ip: r.ip,
});

/** A date as ISO 8601 or Unix seconds, in milliseconds. */
export function parseWhen(value: string, name: string): number {
  const v = value.trim();
  const ms = /^\d{1,12}$/.test(v) ? Number(v) * 1000 : Date.parse(v);
  if (!Number.isFinite(ms)) throw invalid(`${name} must be an ISO 8601 date or Unix seconds`, name);
  return ms;
}

function queryOf(f: AuditFilter): AuditQuery {
  const limit = f.limit === undefined || f.limit === "" ? DEFAULT_LIMIT : Number(f.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be 1 to ${MAX_LIMIT}`, "limit");
  const q: AuditQuery = { limit };
  if (f.from) q.from = parseWhen(f.from, "from");
  if (f.to) q.to = parseWhen(f.to, "to");
  if (f.actor) {
    if ((KINDS as string[]).includes(f.actor)) q.actorKind = f.actor as ActorKind;
    else q.actorId = f.actor;
  }
  if (f.action) q.action = f.action.trim();
  if (f.cursor) {
    if (!/^\d{1,15}$/.test(f.cursor)) throw invalid("cursor is not one this server gave", "cursor");
    q.beforeId = Number(f.cursor);
  }
  return q;
}

export function createAuditLog(deps: { store: AuditStore; now: () => number }) {
  return {
    /**
     * Records a change made in the current scene; without an actor (no surface, no CLI) nothing is
     * written. `tenant` defaults to the tenant the actor acts for: every act on behalf of a tenant is its.
     */
    async record(action: string, target: string, tenant?: number): Promise<void> {
      const who = currentActor();
      if (!who) return;
      await deps.store.appendAudit({ at: deps.now(), actorKind: who.actor.kind, actorId: who.actor.id, tenant: tenant ?? who.actor.tenant ?? 0,
        action, target, ip: who.ip });
    },

    /** A page of entries (of `tenant` only when given), newest first; `next_cursor` is null on the last page. */
    async list(filter: AuditFilter, tenant?: number): Promise<{ items: AuditEntry[]; next_cursor: string | null }> {
      const q = queryOf(filter);
      const rows = await deps.store.listAudit({ ...q, limit: q.limit + 1, ...(tenant !== undefined && { tenant }) });
      const items = rows.slice(0, q.limit).map(auditEntry);
      return { items, next_cursor: rows.length > q.limit ? items[items.length - 1]!.id : null };
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
/** What a service needs of the log: only the writer. */
export type AuditWriter = Pick<AuditLog, "record">;
