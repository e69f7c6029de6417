// Network signatures: which published ranges belong to which scanner, proxy or relay, and what
// a request from them means. Pure data; docs/bot-detection.md explains how to refresh it.
// Roles decide the rule, not the vendor: a range that also carries people must never be "scanner".

/**
 * - scanner: mail-filtering tier only, no mailbox is read from it; a match is the verdict.
 * - scanner-probable: vendor network that also carries people via browser isolation; a match
 *   means "bot" only inside the delivery-time window.
 * - apple-egress: Apple MPP and iCloud Private Relay share it; opens are machine, clicks are people.
 * - google: Gmail image proxy (human opens) and prefetch (machine opens); told apart by UA.
 * - mail-proxy-human: Exchange Online client ranges; Outlook on the web fetches images from them.
 * - cloud: public-cloud compute (data/cloud-ranges.ts); sandboxes and VDI users alike, so it counts
 *   only together with a gateway MX and a click within seconds of delivery.
 * - crawler: a search engine's published crawler ranges (data/crawler-ranges.ts); a match is the verdict.
 */
export type NetworkRole = "scanner" | "scanner-probable" | "apple-egress" | "google" | "mail-proxy-human" | "cloud" | "crawler";

export interface NetworkRangeSet {
  family: string;
  role: NetworkRole;
  /** Where the ranges come from; "(unverified)" marks a single non-vendor source. */
  source: string;
  cidrs: readonly string[];
}

export const NETWORK_RANGES: readonly NetworkRangeSet[] = [
  {
    family: "microsoft-eop",
    role: "scanner",
    source:
      "MicrosoftDocs/microsoft-365-docs office-365-worldwide-endpoints.md v2022072800, endpoint IDs 9+10 " +
      "(*.protection.outlook.com); live list: endpoints.office.com; same set in warmbly tracking/scanner-networks.txt",
    cidrs: [
      "40.92.0.0/15",
      "40.107.0.0/16",
      "52.100.0.0/14",
      "52.238.78.88/32",
      "104.47.0.0/17",
      "2a01:111:f400::/48",
      "2a01:111:f403::/48",
    ],
  },
  {
    // Not in Microsoft's endpoint list, nor in Azure's published AzureCloud space (azure-ranges.ts), where
    // people's cloud desktops egress: no person browses from it.
    family: "microsoft-defender",
    role: "scanner",
    source:
      "LUCY Security documentation, Campaign > Advanced Settings > Filters ('The IP ranges for O365 ATP service are " +
      "40.94.0.0/16 and 104.47.0.0/16'); gophish/gophish#2646 (Defender fetching a link and its page's scripts from " +
      "40.94.89.19-23 with Chrome/101 seconds after delivery, 2022-10-28); opencollective/opencollective#3656 (Safe Links " +
      "fetching magic links from 40.94.16.x with pinned Chrome 64-72); read 2026-11-29 (not a Microsoft page)",
    cidrs: ["40.94.0.0/16"],
  },
  {
    family: "barracuda",
    role: "scanner",
    source:
      "Barracuda Email Gateway Defense regional egress lists as used by warmbly tracking/scanner-networks.txt; " +
      "legacy ESS 64.235.144.0/20 (observed in code, unverified)",
    cidrs: [
      "3.24.133.128/25",
      "15.222.16.128/25",
      "35.157.190.224/27",
      "18.185.115.192/26",
      "18.184.203.224/27",
      "13.200.136.128/25",
      "35.176.92.96/27",
      "18.133.136.128/26",
      "18.133.136.96/27",
      "209.222.82.0/24",
      "64.235.144.0/20",
    ],
  },
  {
    family: "proofpoint",
    role: "scanner-probable",
    source:
      "ASNs 22843/26211/52129 per warmbly; prefixes frequently listed in code (observed, verify against " +
      "Proofpoint's published list): research notes bots-deliverability.md §1.2 Proofpoint",
    cidrs: [
      "148.163.128.0/19",
      "67.231.144.0/20",
      "205.220.160.0/19",
      "66.159.224.0/19",
      "91.209.104.0/24",
      "91.207.212.0/23",
      "62.209.50.0/23",
      "185.132.180.0/22",
      "185.183.28.0/22",
    ],
  },
  {
    family: "mimecast",
    role: "scanner-probable",
    source:
      "ASNs 30031/39588/42427/60492 per warmbly; host 207.211.31.120 (us-smtp-delivery-1.mimecast.com); " +
      "/24s from an anonymous allow-list file citing community.mimecast.com 'Mimecast IP Ranges' (unverified)",
    cidrs: [
      "207.211.30.0/24",
      "207.211.31.0/24",
      "205.139.110.0/24",
      "216.205.24.0/24",
      "170.10.128.0/22",
      "170.10.132.0/23",
      "91.220.42.0/24",
      "195.130.217.0/24",
      "185.58.84.0/22",
      "146.101.78.0/24",
      "41.74.192.0/21",
      "103.96.20.0/22",
    ],
  },
  {
    // Kept apart from the set above, whose addresses the committed evaluation set's generator draws.
    family: "mimecast",
    role: "scanner-probable",
    source:
      "public Exchange Online connection-filter scripts that allow Mimecast's US inbound ranges " +
      "(New-HostedConnectionFilterPolicy 'Mimecast Inbound': 205.139.110.0/24, 205.139.111.0/24, 216.205.24.0/24, " +
      "63.128.21.0/24 and others); the two not listed above, read 2026-11-29 (unverified: not Mimecast's page)",
    cidrs: ["205.139.111.0/24", "63.128.21.0/24"],
  },
  {
    family: "cisco",
    // Mail-gateway hosts only: Cisco's web proxy and remote browser isolation run on Umbrella's own
    // address space, so no person browses from these (docs/bot-detection.md, issue #38).
    role: "scanner",
    source:
      "ASN 16417 per warmbly; the /24s of observed iphmx.com gateways 68.232.143.124, 68.232.154.123, " +
      "216.71.145.142 (list headers); 184.94.240.0/20 from an anonymous allow-list (unverified)",
    cidrs: ["68.232.143.0/24", "68.232.154.0/24", "216.71.145.0/24", "184.94.240.0/20"],
  },
  {
    family: "apple",
    role: "apple-egress",
    source:
      "Apple egress list https://mask-api.icloud.com/egress-ip-ranges.csv via mirror " +
      "hroost/icloud-private-relay-iplist ipv4/ipv6-ranges.txt, aggregated to covering prefixes " +
      "(snapshot 2026-11); load the fine-grained CSV with parseEgressCsv() for production",
    cidrs: [
      "104.28.0.0/16",
      "140.248.0.0/18",
      "146.75.128.0/17",
      "172.224.224.0/19",
      "172.225.0.0/16",
      "172.226.0.0/16",
      "2606:54c0::/30",
      "2a02:26f7:b000::/36",
      "2a02:26f7:c000::/34",
      "2a04:4e41::/32",
      "2a09:bac2::/31",
    ],
  },
  {
    family: "google",
    role: "google",
    source:
      "Classic Google netblocks (_netblocks.google.com / www.gstatic.com/ipranges/goog.json); " +
      "image proxy IPs observed in event payloads: 66.249.84.22, 66.249.93.231, 74.125.210.129; " +
      "the three IPv6 /36-/37 blocks are from memory of goog.json (verify)",
    cidrs: [
      "66.249.80.0/20",
      "66.102.0.0/20",
      "74.125.0.0/16",
      "209.85.128.0/17",
      "64.233.160.0/19",
      "72.14.192.0/18",
      "216.239.32.0/19",
      "2001:4860:4000::/36",
      "2404:6800:4000::/36",
      "2a00:1450:4000::/37",
    ],
  },
  {
    family: "exchange-online",
    role: "mail-proxy-human",
    source:
      "MicrosoftDocs/microsoft-365-docs office-365-worldwide-endpoints.md, Exchange Online endpoint ID 1 " +
      "(Outlook on the web image proxy; warmbly excludes them from scanners for this reason); " +
      "IPv6 entries from memory of the same list (verify against endpoints.office.com)",
    cidrs: [
      "13.107.6.152/31",
      "13.107.18.10/31",
      "13.107.128.0/22",
      "23.103.160.0/20",
      "40.96.0.0/13",
      "40.104.0.0/15",
      "52.96.0.0/14",
      "131.253.33.215/32",
      "132.245.0.0/16",
      "150.171.32.0/22",
      "204.79.197.215/32",
      "2603:1006::/40",
      "2603:1016::/36",
      "2603:1026::/36",
      "2603:1036::/36",
      "2603:1046::/36",
      "2603:1056::/36",
      "2620:1ec:4::152/128",
      "2620:1ec:4::153/128",
      "2620:1ec:c::10/128",
      "2620:1ec:c::11/128",
      "2620:1ec:d::10/128",
      "2620:1ec:d::11/128",
      "2620:1ec:8f0::/46",
      "2620:1ec:900::/46",
      "2620:1ec:a92::152/128",
      "2620:1ec:a92::153/128",
    ],
  },
];
