// The audit log's storage: append and read, nothing else. There is deliberately no method that
// changes or deletes one entry; `expireAudit` only drops whole days past `[retention] audit`.
import type { ActorKind } from "./actor.ts";

export interface AuditRecord {
  /** Assigned by the engine: ascending, never reused (the read cursor). */
  id: number;
  at: number;
  actorKind: ActorKind;
  actorId: string;
  tenant: number;
  action: string;
  target: string;
  ip: string;
}

export interface AuditQuery {
  from?: number;
  to?: number;
  actorKind?: ActorKind;
  actorId?: string;
  /** An exact action ("key.create"), or a family ("key": every "key.…"). */
  action?: string;
  /** Only entries with an id below this one (newest first paging). */
  beforeId?: number;
  /** Only this tenant's entries (absent: every tenant's). */
  tenant?: number;
  limit: number;
}

export interface AuditStore {
  appendAudit(e: Omit<AuditRecord, "id">): Promise<void>;
  /** Newest first. */
  listAudit(q: AuditQuery): Promise<AuditRecord[]>;
  /** Retention only: deletes up to `limit` entries older than `before`, oldest first; returns how many went. */
  expireAudit(before: number, limit: number): Promise<number>;
}
