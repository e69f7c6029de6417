// The node registry inside control.sqlite: every node serving from this control data, with its
// heartbeat and clean stop, so that `postern status` can list the nodes of a zone.
import type { Database } from "bun:sqlite";
import type { NodeRecord, NodeRegistry } from "../../core/store-port.ts";

type Row = Record<string, unknown>;

const toNode = (r: Row): NodeRecord => ({
  nodeId: r.node_id as string, zone: r.zone as string, host: r.host as string, pid: r.pid as number,
  startedAt: r.started_at as number, lastSeenAt: r.last_seen_at as number, stoppedAt: (r.stopped_at as number | null) ?? null,
});

export function createNodeRegistry(db: Database): NodeRegistry {
  const beat = db.query(`INSERT INTO nodes (node_id, zone, host, pid, started_at, last_seen_at, stopped_at) VALUES (?, ?, ?, ?, ?, ?, NULL)
    ON CONFLICT (node_id) DO UPDATE SET zone = excluded.zone, host = excluded.host, pid = excluded.pid,
    started_at = excluded.started_at, last_seen_at = excluded.last_seen_at, stopped_at = NULL`);
  return {
    async heartbeat(n) { beat.run(n.nodeId, n.zone, n.host, n.pid, n.startedAt, n.lastSeenAt); },
    async stopped(nodeId, now) { db.query("UPDATE nodes SET stopped_at = ?, last_seen_at = ? WHERE node_id = ?").run(now, now, nodeId); },
    async listNodes() { return (db.query("SELECT * FROM nodes ORDER BY zone, node_id").all() as Row[]).map(toNode); },
  };
}
