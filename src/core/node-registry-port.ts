// The registry of the nodes sharing one database (a node's presence, its zone and heartbeat), part
// of the storage port (store-port.ts re-exports it).
/** A serving node as the registry knows it (status shows the nodes of the zone and their claims). */
export interface NodeRecord {
  nodeId: string;
  zone: string;
  host: string;
  pid: number;
  startedAt: number;
  /** The last heartbeat. */
  lastSeenAt: number;
  /** Set when the node stopped cleanly; null while it serves (or when it died). */
  stoppedAt: number | null;
}

/** The nodes sharing this store's control data. */
export interface NodeRegistry {
  /** Records `node` as serving now (inserts or refreshes it; clears stoppedAt). */
  heartbeat(node: Omit<NodeRecord, "stoppedAt">): Promise<void>;
  /** Marks a node as stopped cleanly. */
  stopped(nodeId: string, now: number): Promise<void>;
  listNodes(): Promise<NodeRecord[]>;
}
