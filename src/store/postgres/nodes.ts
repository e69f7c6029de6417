// The node registry in the control schema: every node serving from this control data, with its
// heartbeat and clean stop, so that `postern status` lists the nodes of a zone.
import type { NodeRecord, NodeRegistry } from "../../core/store-port.ts";
import { exec, rows, type Row, type Sql } from "./db.ts";

const toNode = (r: Row): NodeRecord => ({
  nodeId: r.node_id as string, zone: r.zone as string, host: r.host as string, pid: Number(r.pid),
  startedAt: Number(r.started_at), lastSeenAt: Number(r.last_seen_at), stoppedAt: r.stopped_at === null ? null : Number(r.stopped_at),
});

export function createNodeRegistry(sql: Sql): NodeRegistry {
  return {
    async heartbeat(n) {
      await exec(sql, `INSERT INTO nodes (node_id, zone, host, pid, started_at, last_seen_at, stopped_at) VALUES ($1, $2, $3, $4, $5, $6, NULL)
        ON CONFLICT (node_id) DO UPDATE SET zone = excluded.zone, host = excluded.host, pid = excluded.pid,
        started_at = excluded.started_at, last_seen_at = excluded.last_seen_at, stopped_at = NULL`,
        [n.nodeId, n.zone, n.host, n.pid, n.startedAt, n.lastSeenAt]);
    },
    async stopped(nodeId, now) { await exec(sql, "UPDATE nodes SET stopped_at = $1, last_seen_at = $1 WHERE node_id = $2", [now, nodeId]); },
    async listNodes() { return (await rows(sql, "SELECT * FROM nodes ORDER BY zone, node_id")).map(toNode); },
  };
}
