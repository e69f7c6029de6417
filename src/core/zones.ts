// Where a domain's zone is served: here, or by the nodes at a zone's `url` ([zones.<name>] url).
// The API asks this before it touches zone data, so a request for a domain of a zone served
// elsewhere is proxied there and its data never lands on this node. The domain comes from the
// one cached domain read (core/domain-read.ts); a name is looked up as itself, then as its
// parents (a sub-domain sends in its parent's zone).
import type { Domain } from "./model.ts";

export interface RemoteZoneRef {
  zone: string;
  /** Where that zone's nodes answer the API. */
  url: string;
  /** Base of that zone's tracking links. */
  publicUrl: string;
}

export interface ZoneDirectoryDeps {
  /** The control data's (cached) domain read, shared by every node when control data is shared. */
  getDomain: (name: string) => Promise<Domain | null>;
  /** Zones served by other nodes, by name. */
  remote: Readonly<Record<string, { url: string; public_url: string }>>;
  /** This node's server.public_url: the tracking base of the zones served here. */
  publicUrl: string;
}

export function createZoneDirectory(deps: ZoneDirectoryDeps) {
  /** The domain itself or its nearest parent. */
  async function owning(name: string): Promise<Domain | null> {
    const labels = name.trim().toLowerCase().replace(/\.$/, "").split(".");
    for (let i = 0; i < labels.length - 1; i++) {
      const d = await deps.getDomain(labels.slice(i).join("."));
      if (d) return d;
    }
    return null;
  }

  function remoteZone(zone: string): RemoteZoneRef | null {
    const r = deps.remote[zone];
    return r ? { zone, url: r.url, publicUrl: r.public_url } : null;
  }

  return {
    remoteZone,
    /** Every zone served elsewhere (an account-wide listing asks each of them). */
    remoteZones(): RemoteZoneRef[] {
      return Object.keys(deps.remote).map((z) => remoteZone(z)!);
    },
    async zoneOf(name: string): Promise<string | null> {
      return (await owning(name))?.zone ?? null;
    },
    /** The zone served elsewhere that owns `domain`, or null (served here, or no such domain). */
    async remoteFor(domain: string): Promise<RemoteZoneRef | null> {
      const d = await owning(domain);
      return d ? remoteZone(d.zone) : null;
    },
    /** The base of tracking links for a domain of `zone`: that zone's public_url. */
    publicUrlOf(zone: string): string {
      return deps.remote[zone]?.public_url ?? deps.publicUrl;
    },
  };
}

export type ZoneDirectory = ReturnType<typeof createZoneDirectory>;
