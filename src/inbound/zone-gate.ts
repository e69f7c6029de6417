// Mail that reaches this node by SMTP for a domain whose zone other nodes serve ([zones.<name>]
// url): a receiving address, a VERP or unsubscribe address under bounces.<domain>, a report
// mailbox. It is refused at RCPT with a temporary 451 naming the zone, instead of being accepted
// here and relayed: accepting would write the eu domain's mail into this node's store (its data
// must stay in its zone), and a relayed copy would reach the zone's nodes from this node's
// address, so their SPF/DMARC checks would judge the wrong sender. A 4xx keeps the mail at the
// sender's MTA (retried for days, or at once at the domain's next MX) while the domain's MX is
// pointed at the right zone's nodes. The node's own `mta.bounce_domain` (VERP return paths of the
// zones served here) is never refused, even when it sits under a domain of another zone.
import type { ZoneDirectory } from "../core/zones.ts";

export interface ZoneGateDeps {
  zones: Pick<ZoneDirectory, "remoteFor">;
  /** The zone this node serves (named in the refusal). */
  localZone: string;
  /** Hosts whose mail is this node's whatever their parent domain: mta.bounce_domain. */
  ownHosts: string[];
}

/** Why mail to `address` is refused here (the SMTP text after "451 "), or null when it is this node's to take or refuse. */
export function createZoneGate(deps: ZoneGateDeps) {
  const own = new Set(deps.ownHosts.map((h) => h.trim().toLowerCase()).filter(Boolean));
  return async (address: string): Promise<string | null> => {
    const at = address.lastIndexOf("@");
    const host = at < 0 ? "" : address.slice(at + 1).toLowerCase().replace(/\.$/, "");
    if (!host || own.has(host)) return null;
    const zone = await deps.zones.remoteFor(host);
    if (!zone) return null;
    return `4.3.5 <${address}>: mail for ${host} is received by the nodes of zone ${zone.zone}, not by this node (zone ${deps.localZone}): ` +
      `point the domain's MX at zone ${zone.zone}'s nodes; try again later`;
  };
}
