// Who is acting: the audit log's answer to "who did this". A surface learns its caller (a key, a
// console user) long after the core services it calls were built, and dozens of service methods
// change things; rather than add an `actor` parameter to each, the HTTP dispatcher and the CLI open
// one scene per request or command (AsyncLocalStorage follows it through every await), the
// surface's authentication names the actor in it, and the audit writer (audit.ts) reads it. A change
// made outside any scene (the recorder's bounce-derived suppressions, a sweeper) has no actor and
// is not a change made through a surface, so it is not recorded.
import { AsyncLocalStorage } from "node:async_hooks";

export type ActorKind = "user" | "key" | "cli";

export interface Actor {
  kind: ActorKind;
  id: string;
  /** The tenant it acts for (a vendor header or its key's own); absent: 0, the primary. */
  tenant?: number;
}

interface Scene {
  actor: Actor | null;
  ip: string;
}

const scenes = new AsyncLocalStorage<Scene>();

/** Runs `fn` in a scene of its own (one HTTP request, one CLI command); `actor` may be named later. */
export function withScene<T>(fn: () => T, actor: Actor | null = null, ip = ""): T {
  return scenes.run({ actor, ip }, fn);
}

/** Names who acts in the current scene (the dispatcher once it has authenticated the caller). */
export function nameActor(actor: Actor | null, ip?: string): void {
  const scene = scenes.getStore();
  if (!scene) return;
  scene.actor = actor;
  if (ip !== undefined) scene.ip = ip;
}

/** The current scene's actor and client address, or null outside any scene or before anyone is named. */
export function currentActor(): { actor: Actor; ip: string } | null {
  const scene = scenes.getStore();
  return scene?.actor ? { actor: scene.actor, ip: scene.ip } : null;
}

/** The actor of an authenticated principal: its console user when signed in as one, else its key. */
export function actorOf(principal: { keyId: string; userId?: string; tenant?: number } | null): Actor | null {
  if (!principal) return null;
  const tenant = principal.tenant ? { tenant: principal.tenant } : {};
  return principal.userId ? { kind: "user", id: principal.userId, ...tenant } : { kind: "key", id: principal.keyId, ...tenant };
}
