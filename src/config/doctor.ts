// Checks of [doctor] and [blocklists] beyond their types: addresses are addresses, the probe is
// host[:port], zones are DNS names (src/doctor, docs/deliverability.md).
import { isIP } from "node:net";

const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[^:\s[\]]+)(:\d{1,5})?$/;
const DNS_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.?$/i;

export function checkDoctor(cfg: { doctor: { port25_probe: string; public_addresses: string[] }; blocklists: { ip_zones: string[]; domain_zones: string[]; spamhaus_dqs_key: string } },
  where: string, problems: string[]) {
  if (!HOST_PORT.test(cfg.doctor.port25_probe)) problems.push(`${where}: doctor.port25_probe: expected host[:port], got "${cfg.doctor.port25_probe}"`);
  for (const a of cfg.doctor.public_addresses) if (!isIP(a)) problems.push(`${where}: doctor.public_addresses: "${a}" is not an IPv4 or IPv6 address`);
  for (const key of ["ip_zones", "domain_zones"] as const) {
    for (const z of cfg.blocklists[key]) if (!DNS_NAME.test(z)) problems.push(`${where}: blocklists.${key}: "${z}" is not a DNS zone name`);
  }
  if (cfg.blocklists.spamhaus_dqs_key && !/^[a-z0-9]+$/i.test(cfg.blocklists.spamhaus_dqs_key)) {
    problems.push(`${where}: blocklists.spamhaus_dqs_key: expected letters and digits (the key Spamhaus gave you)`);
  }
}
