// This machine's own addresses: what a receiver's report shows as the source of our own mail
// (outbound SMTP binds to one of them). Marked as ours on the Reports page and in the CLI.
import { networkInterfaces } from "node:os";

export function ownAddresses(extra: readonly string[] = []): Set<string> {
  const out = new Set(extra);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(a.address);
  return out;
}
