// Address space the independent evaluation draws from, kept as its own copy of published facts (never
// imported from the detector's data files). Where a vendor publishes no list we could read, its
// scanner egresses from space no list carries, which is what the detector would meet in the field.

import type { Rand } from "./rng.ts";

/** Published or observed prefixes per network, each with where the fact comes from. */
export const NETWORKS = {
  // Microsoft 365 endpoints, IDs 9 and 10 (*.protection.outlook.com): Exchange Online Protection.
  eop: ["40.92.0.0/15", "40.107.0.0/16", "52.100.0.0/14", "104.47.0.0/17"],
  // Azure service tag AzureCloud (ServiceTags_Public.json): Defender's detonation and re-crawl space,
  // and also Azure Virtual Desktop / Windows 365 session hosts, where people read mail.
  azure: ["4.144.0.0/12", "13.64.0.0/13", "20.64.0.0/12", "20.112.0.0/12", "40.112.128.0/17"],
  // AWS ip-ranges.json, service EC2: where Sophos Email runs ("hosted on AWS, non-static IP
  // addresses", docs.sophos.com DomainsPorts) and many sandboxes and crawlers egress.
  aws: ["3.64.0.0/11", "18.192.0.0/11", "34.192.0.0/10", "44.192.0.0/10", "52.0.0.0/11", "54.144.0.0/12"],
  // Barracuda Campus, EGD "IP Analysis - Inbound" (209.222.80.0/21), and the regional EGD lists
  // (AU, CA, DE, UK, IN) as carried by warmbly's scanner-networks.txt.
  barracuda: ["209.222.80.0/21", "3.24.133.128/25", "15.222.16.128/25", "35.157.190.224/27", "18.185.115.192/26",
    "35.176.92.96/27", "18.133.136.128/26", "13.200.136.128/25"],
  // Proofpoint support portal, "Support Info" page: Proofpoint-operated networks.
  proofpoint: ["62.209.50.0/24", "91.209.104.0/24", "208.36.134.0/24", "208.84.64.0/22", "208.86.200.0/22",
    "209.66.100.64/26", "67.231.144.0/20"],
  // Mimecast delivery hosts as they resolve (us-smtp-inbound-N.mimecast.com 207.211.30.x; gist
  // wjessop/682989a2, 2018) and the /24 of us-smtp-delivery-1 (207.211.31.120, list headers).
  mimecast: ["207.211.30.0/24", "207.211.31.0/24"],
  // Cisco Secure Email Cloud gateways seen in list headers (esaN.<customer>.iphmx.com).
  cisco: ["68.232.143.0/24", "68.232.154.0/24", "216.71.145.0/24"],
  // Apple's egress list (mask-api.icloud.com/egress-ip-ranges.csv): MPP and iCloud Private Relay.
  apple: ["172.224.224.0/19", "172.225.0.0/16", "172.226.0.0/16", "104.28.0.0/16", "146.75.128.0/17"],
  // Google's image proxy netblock (_netblocks.google.com): Gmail's proxied opens.
  googleProxy: ["66.249.80.0/20", "66.102.0.0/20"],
  // Hosting allocations no published scanner list names (Hetzner, OVH, DigitalOcean, Linode): where
  // gateways without a published list, and generic crawlers, egress.
  hosting: ["49.12.0.0/16", "78.46.0.0/15", "51.68.0.0/16", "159.89.0.0/16", "167.99.0.0/16", "172.104.0.0/15"],
} as const;

export type NetworkName = keyof typeof NETWORKS;

/** First octets of consumer broadband space (Comcast, Charter, AT&T, BT, DT, Orange, ...); no scanner list covers them. */
const BROADBAND_OCTETS = [24, 50, 67, 68, 69, 71, 73, 75, 76, 81, 82, 84, 86, 87, 88, 89, 90, 92, 93, 94, 95, 98, 99, 108, 109, 176, 178, 188, 212, 217];
/** Mobile carriers' IPv6 prefixes (T-Mobile US, Verizon, Orange FR, Vodafone DE). */
const CARRIER_V6 = ["2607:fb90", "2600:1010", "2a01:cb00", "2a02:3030"];
/** Carrier CGNAT egress: a handful of addresses shared by many subscribers. */
const CARRIER_V4 = ["172.56.0.0/16", "174.192.0.0/13"];

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

function intToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");
}

/** A random host address inside an IPv4 CIDR (network and broadcast avoided when there is room). */
export function addressIn(rand: Rand, cidr: string): string {
  const [base = "", bits = "32"] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  const offset = size > 4 ? rand.int(1, size - 2) : rand.int(0, size - 1);
  return intToIpv4(ipv4ToInt(base) - (ipv4ToInt(base) % size) + offset);
}

export function addressOf(rand: Rand, network: NetworkName): string {
  return addressIn(rand, rand.pick(NETWORKS[network]));
}

export function broadbandV4(rand: Rand): string {
  return `${rand.pick(BROADBAND_OCTETS)}.${rand.int(0, 255)}.${rand.int(0, 255)}.${rand.int(1, 254)}`;
}

export function carrierV6(rand: Rand): string {
  const groups = Array.from({ length: 6 }, () => rand.int(0, 0xffff).toString(16));
  return `${rand.pick(CARRIER_V6)}:${groups.join(":")}`;
}

export function carrierV4(rand: Rand): string {
  return addressIn(rand, rand.pick(CARRIER_V4));
}
