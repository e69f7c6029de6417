// Which inbound addresses take delivery and complaint reports besides VERP return paths:
// postmaster@, abuse@ and fbl@ of a domain we send for, or of its bounce domain.
import type { Domain } from "./model.ts";

const REPORT_MAILBOXES = new Set(["postmaster", "abuse", "fbl"]);

export function createReportMailboxes(deps: { getDomain: (name: string) => Promise<Domain | null>; bounceDomain: string }) {
  return async (address: string): Promise<boolean> => {
    const at = address.lastIndexOf("@");
    if (at < 1 || !REPORT_MAILBOXES.has(address.slice(0, at).toLowerCase())) return false;
    const host = address.slice(at + 1).toLowerCase();
    if (deps.bounceDomain && host === deps.bounceDomain.toLowerCase()) return true;
    if (await deps.getDomain(host)) return true;
    // Without a configured bounce domain, each domain's is bounces.<domain>.
    return !deps.bounceDomain && host.startsWith("bounces.") && (await deps.getDomain(host.slice("bounces.".length))) !== null;
  };
}
