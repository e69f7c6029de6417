// Mail services' own netblocks as their SPF records publish them, beyond the older sets in
// ip-ranges.ts. Pure data, kept apart so that the committed evaluation set's generator, which draws
// its unlisted addresses outside ip-ranges.ts, still reproduces its file. The role is the same as
// the service's set there: people's opens come through these networks, people's clicks never do.

import type { NetworkRangeSet } from "./ip-ranges.ts";

export const MAIL_NETBLOCKS: readonly NetworkRangeSet[] = [
  {
    family: "google",
    role: "google",
    source:
      "Google's SPF netblocks _netblocks.google.com (35.190.247.0/24, 108.177.8.0/21, 173.194.0.0/16 beside the " +
      "classic set in ip-ranges.ts) and _netblocks2.google.com (ip6 2001:4860:4000::/36, 2404:6800:4000::/36, " +
      "2607:f8b0:4000::/36, 2800:3f0:4000::/36, 2a00:1450:4000::/36, 2c0f:fb50:4000::/36), as quoted in public " +
      "SPF-parser tests and SPF-flattening guides, read 2026-11-29",
    cidrs: ["35.190.247.0/24", "108.177.8.0/21", "173.194.0.0/16", "2607:f8b0:4000::/36", "2800:3f0:4000::/36",
      "2a00:1450:4000::/36", "2c0f:fb50:4000::/36"],
  },
  {
    family: "exchange-online",
    role: "mail-proxy-human",
    source:
      "Microsoft 365 worldwide endpoints, Exchange Online endpoint ID 1: the IPv6 prefixes beside those in ip-ranges.ts " +
      "(2a01:111:f400::/48 stays Exchange Online Protection's there), as quoted from the published list in a public " +
      "endpoint-parsing script, read 2026-11-30",
    cidrs: ["2603:1096::/38", "2603:1096:400::/40", "2603:1096:600::/40", "2603:1096:a00::/39", "2603:1096:c00::/40",
      "2603:10a6:200::/40", "2603:10a6:400::/40", "2603:10a6:600::/40", "2603:10a6:800::/40", "2603:10d6:200::/40"],
  },
  {
    // Microsoft 365's own service front-ends (SharePoint and OneDrive, Office Online, Teams): no person's browser
    // is there. A link fetched from them is a Microsoft service fetching it (Teams' link preview: Microsoft Q&A
    // 12221247 shows one from 52.112.103.113).
    family: "microsoft-365",
    role: "mail-proxy-human",
    source:
      "Microsoft 365 worldwide endpoints (endpoints.office.com): SharePoint ID 31, Microsoft 365 Common and Office " +
      "Online ID 46, Teams ID 11, as quoted from the published list in public endpoint-parsing scripts and firewall " +
      "templates, read 2026-11-30",
    cidrs: [
      "13.107.136.0/22", "40.108.128.0/17", "52.104.0.0/14", "104.146.128.0/17", "150.171.40.0/22", "2620:1ec:8f8::/46",
      "2620:1ec:908::/46", "2a01:111:f402::/48",
      "13.107.6.171/32", "13.107.18.15/32", "13.107.140.6/32", "52.108.0.0/14", "52.238.106.116/32", "52.244.37.168/32",
      "52.244.203.72/32", "52.244.207.172/32", "52.244.223.198/32", "52.247.150.191/32",
      "13.107.64.0/18", "52.112.0.0/14", "52.122.0.0/15",
    ],
  },
];
