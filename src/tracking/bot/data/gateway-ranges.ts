// Security gateways' egress ranges as their vendors publish them, each set with the vendor page it
// was read from and the date it was read. Pure data, kept apart from ip-ranges.ts (whose older,
// partly unverified gateway entries stay where they are). docs/bot-detection.md says how to refresh.
//
// Read 2026-11-28 through the project's search tool (stored copies of the vendors' pages):
// - Barracuda: the regional list page (Email Security Service IP Ranges, campus doc 78810332) names
//   the AU, CA, DE, UK and US instances, but its stored copy lost the table's prefixes; the EGD page
//   below gives the US range as the worked example of a correct entry, so that range is shipped.
// - Proofpoint: the support portal's "Support Info" page lists the networks Proofpoint operates.
// - Mimecast: its "Web Security Prerequisites" page names two addresses of Mimecast's web security
//   service inside the space ip-ranges.ts already lists as Mimecast's: people browse through it, so
//   Mimecast space stays "scanner-probable".
// - Cisco Secure Email Cloud, Trend Micro Email Security and Sophos Email: no page with prefixes was
//   found (Trend Micro KB 000199043 and Sophos' DomainsPorts page point at lists their stored
//   copies do not carry; Sophos says its email service runs on AWS with non-static addresses).
//   Nothing is shipped for them here; a range without a vendor source is not shipped.

import type { NetworkRangeSet } from "./ip-ranges.ts";

export const GATEWAY_RANGES: readonly NetworkRangeSet[] = [
  {
    family: "barracuda",
    role: "scanner",
    source:
      "Barracuda Campus, Email Gateway Defense 'IP Analysis - Inbound' " +
      "https://campus.barracuda.com/product/emailgatewaydefense/doc/96023004/ip-analysis-inbound/ " +
      "(209.222.80.0 with netmask 255.255.248.0 as the correct entry of the service's range), read 2026-11-28",
    cidrs: ["209.222.80.0/21"],
  },
  {
    family: "proofpoint",
    role: "scanner-probable",
    source:
      "Proofpoint support portal 'Support Info' https://proofpoint.my.site.com/support/PPSup_SupportInfo " +
      "(networks a Proofpoint appliance must reach: Proofpoint-operated space), read 2026-11-28",
    cidrs: [
      "62.209.50.0/24", "91.209.104.0/24", "208.36.134.0/24", "208.84.64.0/22", "208.86.200.0/22",
      "209.66.100.64/26", "67.231.144.0/20",
    ],
  },
  {
    family: "mimecast",
    role: "scanner-probable",
    source:
      "Mimecast 'Web Security Prerequisites' " +
      "https://mimecastsupport.zendesk.com/hc/en-us/articles/34000479767443-Web-Security-Prerequisites " +
      "(the web security gateway servers people's traffic goes through), read 2026-11-28",
    cidrs: ["41.74.203.10/32", "41.74.203.11/32"],
  },
];
