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
// - Trend Micro Email Security and Sophos Email: no page with prefixes was found (Trend Micro KB
//   000199043 and Sophos' DomainsPorts page point at lists their stored copies do not carry; Sophos
//   says its email service runs on AWS with non-static addresses). Nothing is shipped for them here.
//
// Read 2026-11-30:
// - Microsoft 365 GCC High and DoD: their endpoint pages list their Exchange Online Protection ranges.
// - Microsoft: 2a01:111::/32, the allocation around Microsoft 365's published IPv6 /48s, as public lists name it.
// - Sophos Email: its own infrastructure script (public) lists the production address blocks of each
//   region; they replace the hosts seen in headers, which all fall inside.
// - Trend Micro: still no page with prefixes; its own /16, as site operators' block lists name it, is in
//   GATEWAY_SPACE_OBSERVED below.
// - Hornetsecurity (which now also runs Vade Cloud): its support page for Vade Cloud customers lists the
//   ranges to allow, the general worldwide one first.
//
// Read 2026-11-29:
// - Cisco Secure Email Threat Defense: its user guide lists each region's delivery hosts by address.
// - Cisco Secure Email Cloud Gateway (iphmx.com): Cisco sends each customer its addresses in a welcome
//   mail, not on a page. Its customers publish them in their SPF records, and mail headers show the
//   hosts: those are the facts used, each named below.

import type { NetworkRangeSet } from "./ip-ranges.ts";

export const GATEWAY_RANGES: readonly NetworkRangeSet[] = [
  {
    // Exchange Online Protection of Microsoft 365's US Government clouds, as ip-ranges.ts has the worldwide one.
    family: "microsoft-eop",
    role: "scanner",
    source:
      "Microsoft 365 U.S. Government GCC High and DoD endpoints, Exchange Online ID 6 (*.protection.office365.us) " +
      "https://learn.microsoft.com/en-us/microsoft-365/enterprise/microsoft-365-u-s-government-gcc-high-endpoints " +
      "and .../microsoft-365-u-s-government-dod-endpoints, as MicrosoftDocs/microsoft-365-docs' includes carry them; read 2026-11-30",
    cidrs: [
      "23.103.191.0/24", "23.103.199.0/24", "23.103.204.0/22", "23.103.208.0/22", "62.10.128.0/20", "62.10.144.0/20",
      "52.227.182.149/32", "52.238.74.212/32", "52.244.65.13/32", "2001:489a:2202::/62", "2001:489a:2202:4::/62",
      "2001:489a:2202:8::/62", "2001:489a:2202:c::/62", "2001:489a:2202:2000::/63", "2001:489a:2202:8000::/50",
      "2001:489a:2202:c000::/50",
    ],
  },
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
  {
    // Scanner-probable: Hornetsecurity sells a web filter too, whose people may browse through its space.
    family: "hornetsecurity",
    role: "scanner-probable",
    source:
      "Hornetsecurity support 'Migration for Vade Cloud Customers' " +
      "https://support.hornetsecurity.com/hc/en-us/articles/45997388779537-Migration-for-Vade-Cloud-Customers " +
      "(recommended IP ranges: the general worldwide range, Atlanta, Washington and Hannover), read 2026-11-30",
    cidrs: ["94.100.128.0/20", "185.140.204.0/22", "173.45.18.0/24", "83.246.65.0/24"],
  },
  {
    family: "cisco",
    role: "scanner",
    source:
      "Cisco Secure Email Threat Defense user guide, 'SMTP' and 'Primary Gateway' message-source pages " +
      "(https://docs.cmd.cisco.com/en/Content/secure-email-threat-defense-user-guide/Setup%20SMTP/Set%20up%20Your%20Message%20Source/SMTP.htm): " +
      "the host.<region>.etd.cisco.com addresses of North America, Europe, India, Australia, UAE, beta and government, read 2026-11-29",
    cidrs: [
      "3.24.0.238/32", "3.41.135.128/29", "3.41.135.136/31", "3.41.135.138/32", "3.41.135.140/32", "3.41.135.142/31",
      "3.41.135.148/32", "3.41.135.151/32", "3.83.181.165/32", "3.121.252.9/32", "3.122.146.98/32", "3.212.52.157/32",
      "3.218.110.126/32", "3.233.202.39/32", "13.126.150.150/32", "13.235.117.17/32", "15.207.156.30/32",
      "18.96.45.96/29", "18.96.45.104/30", "18.96.227.160/30", "18.158.246.66/32", "34.237.73.142/32",
      "35.171.255.176/32", "40.172.72.5/32", "40.172.180.89/32", "40.172.203.161/32", "52.4.38.100/32",
      "52.21.33.60/32", "52.62.51.239/32", "52.65.229.190/32", "195.146.171.50/31",
    ],
  },
];

/**
 * A gateway's hosting space where its vendor gives no list on a page (Cisco sends its Cloud Gateway
 * customers their addresses in a welcome mail) but the world sees it: its customers' SPF records, and
 * the Received headers of the mail its hosts relay to public mailing lists. Each set names what was
 * read; a prefix is the smallest cover of the hosts seen unless a customer's SPF names it whole.
 */
export const GATEWAY_SPACE_OBSERVED: readonly NetworkRangeSet[] = [
  {
    // Microsoft's online-services IPv6 allocation, around the /48s Microsoft 365's endpoint list names (EOP's f400
    // and f403 in ip-ranges.ts, SharePoint's f402): Safe Links' and Outlook.com's checks come from the rest of it too.
    // Not "scanner": Azure Front Door and Bing share it and nothing published says no person is behind it.
    family: "microsoft-services",
    role: "scanner-probable",
    source:
      "2a01:111::/32, Microsoft's RIPE allocation as open-source address classifiers and crawler block lists name it " +
      "('Microsoft', Bing's fallback ranges beside 2620:1ec::/32 and 2001:4898::/32), found through public code search; " +
      "every Microsoft 365 IPv6 prefix Microsoft publishes under 2a01:111 lies inside; read 2026-11-30 (not a Microsoft page)",
    cidrs: ["2a01:111::/32"],
  },
  {
    family: "trend-micro",
    // Trend Micro's own block: its web-reputation crawler re-fetches the links its products see, from here. Not
    // "scanner": Trend's web gateway may carry people, so the delivery window and a sandbox's habits decide.
    role: "scanner-probable",
    source:
      "Trend Micro's address block as public lists name it (not a Trend Micro page): site operators' nginx and cloud " +
      "network-ACL block lists ('150.70.0.0/16; # Trend Micro Bot', 'トレンドマイクロ拒否'), a Japanese site's crawler-IP " +
      "list ('TrendMicro'), a WAF fingerprint map (trend_micro ips 150.70.0.0/16), found through public code search; " +
      "Trend Micro Email Security's EU prefilter host (prefilter.emailsecurity.trendmicro.eu, 150.70.226.147) in a " +
      "published Postfix log; read 2026-11-30 (unverified). 216.104.15.0/24: the hosts site operators saw re-fetch " +
      "what Trend Micro's customers visited, which whois gives as Trend Micro's (serverfault.com question 138240: " +
      "216.104.15.13, .130, .138, .142; himaj.in 2009-05: .130, .134, .138, .142); Trend Micro's KB tmka-18762 says " +
      "its Web Reputation servers fetch unrated pages its customers visit",
    cidrs: ["150.70.0.0/16", "216.104.15.0/24"],
  },
  {
    family: "cisco",
    // Mail-gateway hosts only, like the /24s in ip-ranges.ts: Cisco's web proxy and browser isolation
    // run on Umbrella's address space, so no person browses from here.
    role: "scanner",
    source:
      "Cisco Secure Email Cloud Gateway (IronPort, ASN 16417) hosting space as its customers publish it: SPF records " +
      "authorising ip4:68.232.128.0/19 (deloitte.es, Dow Jones) and ip4:68.232.147.0/24 to 68.232.154.0/24 with " +
      "216.71.150.0/24 to 216.71.154.0/24 (a Cisco-hosted sender's SPF quoted in public list archives), ip4:216.71.144.176 " +
      "(another's); esa*.iphmx.com hosts at 68.232.141.245 and 216.71.145.142-155 in list headers. 216.71.144.0/20 is the smallest " +
      "cover of the hosts seen there; read 2026-11-29",
    cidrs: ["68.232.128.0/19", "216.71.144.0/20"],
  },
  {
    family: "sophos",
    // Sophos Email's relays (*.prod.hydra.sophos.com); its web protection runs elsewhere.
    role: "scanner",
    source:
      "Sophos Email's production elastic-IP blocks per AWS region, as Sophos's own xgemail infrastructure script lists them " +
      "(rakesh-gauswami/xgemail-infrastructure bamboo/xgemail/xgemail-tag-all-prod-eips.py, (c) 2018 Sophos Limited: us-west-2, " +
      "eu-west-1, eu-central-1 and us-east-2, each a few /26s and one Sophos /24); the relay hosts in the Received headers of " +
      "public mailing-list archives (lore.kernel.org, osuosl.org: ix/wx-euc1 94.140.18.103-120, ix-euw1 198.154.180.101, " +
      "euc1 35.159.27.102 and .143, rd/rx-use2 18.216.23.15 and .30) all fall inside; read 2026-11-30",
    cidrs: [
      "94.140.18.0/24", "198.154.180.0/24", "198.154.181.0/24", "103.246.251.0/24", "35.159.27.0/24", "34.212.96.64/26",
      "34.213.30.0/26", "34.213.30.64/26", "34.213.30.128/26", "34.253.219.128/25", "34.253.238.0/25", "18.216.13.64/26",
      "18.216.13.128/25", "18.216.23.0/26",
    ],
  },
  {
    family: "trend-micro",
    role: "scanner",
    source:
      "Trend Micro Email Security's SPF record spf.tmes.trendmicro.com and its include spfb.tmes.trendmicro.com, as " +
      "resolved in a public SPF scanner's test answers; its relays in the Received headers of public mailing-list " +
      "archives fall inside (inpost.tmes.trendmicro.com 18.208.22.104 and .119, refb01/refb02.tmes.trendmicro.eu " +
      "18.185.115.53-60, repost01 18.185.115.8); read 2026-11-29",
    cidrs: [
      "18.208.22.64/26", "18.208.22.128/25", "18.185.115.128/26", "18.185.115.0/25", "13.238.202.0/25", "13.238.202.128/26",
      "18.176.203.128/25", "13.213.174.128/25", "18.177.156.0/25", "13.213.220.0/25", "107.22.223.18/32", "52.70.252.86/32",
      "35.156.245.132/32", "18.156.0.20/32", "3.72.196.143/32", "54.146.4.63/32", "54.174.82.86/32",
    ],
  },
  {
    family: "mimecast",
    // Browser isolation runs in Mimecast's data centres: its space carries people (see ip-ranges.ts).
    role: "scanner-probable",
    source:
      "Mimecast's SPF netblocks _netblocks.mimecast.com and its regional includes eu, us, za, de, au and ca._netblocks, " +
      "as resolved in apiverve's SPF Validator documentation (example response for myspace.com); read 2026-11-29",
    cidrs: [
      "195.130.217.0/24", "91.220.42.0/24", "146.101.78.0/24", "207.82.80.0/24", "213.167.81.0/25", "193.7.207.0/25",
      "213.167.75.0/25", "185.58.85.0/24", "185.58.86.0/24", "193.7.206.0/25", "147.28.36.0/24", "207.211.31.0/25",
      "205.139.110.0/24", "216.205.24.0/24", "170.10.129.0/24", "63.128.21.0/24", "170.10.133.0/24", "185.58.84.93/32",
      "207.211.41.113/32", "207.211.30.64/26", "207.211.30.128/25", "216.145.221.0/24", "170.10.128.0/24",
      "170.10.132.56/29", "170.10.132.64/29", "41.74.192.0/22", "41.74.200.0/23", "41.74.196.0/22", "41.74.204.0/23",
      "41.74.206.0/24", "51.163.158.0/24", "194.104.109.0/24", "194.104.111.0/24", "194.104.110.21/32",
      "194.104.110.240/28", "62.140.10.21/32", "62.140.7.0/24", "194.104.108.240/29", "194.104.108.21/32",
      "103.13.69.0/24", "124.47.150.0/24", "124.47.189.0/24", "103.96.23.0/24", "103.96.21.0/24", "180.189.28.0/24",
      "216.145.217.0/24", "103.96.22.96/28", "103.96.22.22/32", "103.96.20.22/32", "103.96.20.96/28", "170.10.145.0/24",
      "170.10.147.0/24", "170.10.144.126/32", "170.10.146.126/32", "170.10.144.240/29", "170.10.146.240/29",
      "216.145.216.0/24",
    ],
  },
];
