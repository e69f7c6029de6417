// This node in the registry, and the registry as `postern status` shows it: the nodes of a zone,
// whether each still serves (heartbeat), and the claims each holds. A node that died keeps its
// row (and its claims until their leases end): status says how long it has been silent.
import type { NodeRecord, Store } from "./store-port.ts";

/** How often a serving node records that it is alive. */
export const HEARTBEAT_MS = 5_000;
/** A node not heard of for this long is shown as silent (presumed dead). */
const SILENT_AFTER_MS = 3 * HEARTBEAT_MS;

export interface NodeIdentity { nodeId: string; zone: string; host: string; pid: number }

export interface NodeView extends NodeRecord {
  state: "serving" | "silent" | "stopped";
  claims: { recipients: number; webhooks: number };
  self: boolean;
}

export function createNodePresence(deps: { store: Store; now: () => number; node: NodeIdentity }) {
  const { store, node } = deps;
  let startedAt = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  const beat = () => store.nodes.heartbeat({ ...node, startedAt, lastSeenAt: deps.now() });

  return {
    node,
    /** Registers this node as serving and keeps its heartbeat going. */
    async start(onError: (e: unknown) => void) {
      startedAt = deps.now();
      await beat();
      timer = setInterval(() => void beat().catch(onError), HEARTBEAT_MS);
      timer.unref?.();
    },
    async stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = null;
      await store.nodes.stopped(node.nodeId, deps.now());
    },
    /** The nodes of `zone` (every zone when null) with their state and the live claims they hold here. */
    async list(zone: string | null): Promise<NodeView[]> {
      const now = deps.now();
      const claims = new Map<string, { recipients: number; webhooks: number }>();
      for (const name of store.zoneNames()) {
        for (const h of await store.zone(name).claimsHeld(now)) {
          const c = claims.get(h.owner) ?? { recipients: 0, webhooks: 0 };
          claims.set(h.owner, { recipients: c.recipients + h.recipients, webhooks: c.webhooks + h.webhooks });
        }
      }
      const nodes = (await store.nodes.listNodes()).filter((n) => zone === null || n.zone === zone);
      // Claims of a node the registry does not know (claimed by an older version) still show.
      for (const owner of claims.keys()) {
        if (!nodes.some((n) => n.nodeId === owner)) nodes.push({ nodeId: owner, zone: zone ?? "", host: "", pid: 0, startedAt: 0, lastSeenAt: 0, stoppedAt: null });
      }
      return nodes.map((n) => ({ ...n, self: n.nodeId === node.nodeId, claims: claims.get(n.nodeId) ?? { recipients: 0, webhooks: 0 },
        state: n.stoppedAt !== null ? "stopped" : now - n.lastSeenAt < SILENT_AFTER_MS ? "serving" : "silent" }));
    },
  };
}

export type NodePresence = ReturnType<typeof createNodePresence>;
