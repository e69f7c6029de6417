// openPostgresStore: the control schema on control_url (shared by every node of every zone) and
// one schema per local zone on postern_url, migrated on open. Several nodes open the same
// database: they share the queue and the outbox (claims carry this node's id and a lease).
import { createTlsStateStore } from "./tls-state.ts";
import type { ServeLease, Store, ZoneStore } from "../../core/store-port.ts";
import { AppError } from "../../core/errors.ts";
import { migrate, openPool, type Sql } from "./db.ts";
import { CONTROL_MIGRATIONS, CONTROL_SCHEMA, ZONE_MIGRATIONS, zoneSchema } from "./migrations.ts";
import { createControlStore } from "./control.ts";
import { createTemplateRepo } from "./templates.ts";
import { createListRepo } from "./lists.ts";
import { createZoneStore } from "./zone.ts";
import { createNodeRegistry } from "./nodes.ts";

export interface PostgresOptions {
  /** The zones' data: one schema per zone. */
  postgresUrl: string;
  /** Account, domains, keys, webhooks, templates, lists; empty: postgresUrl. */
  controlUrl?: string;
  zones: string[];
  /** This node's id (unique among the nodes sharing the database); claims name their owner themselves. */
  nodeId: string;
}

export async function openPostgresStore(opts: PostgresOptions): Promise<Store> {
  if (!opts.postgresUrl) throw new Error("storage.engine is \"postgres\" but storage.postgres_url is empty");
  if (!opts.nodeId) throw new Error("the PostgreSQL engine needs a node id (server.node_id)");
  const control = openPool(opts.controlUrl || opts.postgresUrl, CONTROL_SCHEMA);
  const pools: Sql[] = [control];
  const zones = new Map<string, ZoneStore>();
  const leases = new Set<ServeLease>();
  try {
    await migrate(control, CONTROL_SCHEMA, CONTROL_MIGRATIONS);
    for (const name of opts.zones) {
      const pool = openPool(opts.postgresUrl, zoneSchema(name));
      const outcomes = openOutcomePool(opts.postgresUrl, zoneSchema(name));
      pools.push(pool, outcomes);
      await migrate(pool, zoneSchema(name), ZONE_MIGRATIONS);
      await outcomes.unsafe("SELECT 1"); // connected now, not on the first outcome
      zones.set(name, createZoneStore(name, pool, outcomes));
    }
  } catch (e) {
    await Promise.all(pools.map((p) => p.close()));
    throw e;
  }
  return {
    control: createControlStore(control),
    templates: createTemplateRepo(control),
    lists: createListRepo(control),
    nodes: createNodeRegistry(control),
    tls: createTlsStateStore(control),
    zone(name) {
      const z = zones.get(name);
      if (!z) throw new Error(`unknown zone "${name}" (configured: ${opts.zones.join(", ")})`);
      return z;
    },
    zoneNames: () => [...zones.keys()],
    async takeLease(nodeId) {
      const lease = await takeNodeLease(pools[pools.length - 1]!, nodeId);
      leases.add(lease);
      return { release: async () => { if (leases.delete(lease)) await lease.release(); } };
    },
    async schemaVersion() {
      const version = async (sql: Sql) => ((await sql.unsafe("SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations")) as { v: number }[])[0]!.v;
      const zoneVersions: Record<string, number> = {};
      for (const [name, i] of [...zones.keys()].map((n, i) => [n, i] as const)) zoneVersions[name] = await version(pools[1 + 2 * i]!);
      return { control: await version(control), zones: zoneVersions };
    },
    async backup() {
      throw new AppError("invalid", "postern backup copies SQLite files; on PostgreSQL use pg_dump (and pg_restore to restore): see docs/operations.md");
    },
    // A lease still held is given back first: its connection belongs to a pool closed here.
    async close() {
      for (const l of [...leases]) { leases.delete(l); await l.release(); }
      await Promise.all(pools.map((p) => p.close()));
    },
  };
}

/**
 * Outcomes (delivery attempts, reports, tracking events) are written on connections of their own,
 * so one never waits behind a claim or a send on the shared pool: between a destination's 250 and
 * the outcome's commit a kill -9 delivers the message twice. Delivery attempts commit without
 * waiting for the disk (queue.ts, addOutcomeCommitMode).
 */
export function openOutcomePool(url: string, schema: string): Sql {
  return openPool(url, schema, 2, { application_name: OUTCOME_CONNECTIONS });
}

/** The application_name of the outcome connections (pg_stat_activity tells them apart). */
export const OUTCOME_CONNECTIONS = "postern outcomes";

/**
 * The serve lease on PostgreSQL is per node id: a session advisory lock on one reserved
 * connection, held while the node serves. Nodes with different ids serve side by side (that is the
 * point); a second live node with the same id is refused, since a starting node takes back the
 * claims of its id and two would send the same mail. A killed node's connection drops and the
 * database releases its lock.
 */
async function takeNodeLease(pool: Sql, nodeId: string): Promise<ServeLease> {
  const conn = await pool.reserve();
  const key = `postern-node:${nodeId}`;
  const [r] = (await conn.unsafe("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok", [key])) as { ok: boolean }[];
  if (!r?.ok) {
    conn.release();
    throw new AppError("conflict", `another postern node with node_id "${nodeId}" is running on this database`);
  }
  return {
    async release() {
      try { await conn.unsafe("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]); } catch { /* the connection is gone: so is the lock */ }
      conn.release();
    },
  };
}
