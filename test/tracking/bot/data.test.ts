// Invariants of the shipped signature data: every range parses and names its source, ranges that
// carry people never sit under a scanner range, MX suffixes are normalised, UA patterns behave.

import { describe, expect, test } from "bun:test";
import { createIpRangeMatcher, parseCidr } from "../../../src/tracking/bot/cidr.ts";
import { createClassifierContext, parseRangeList } from "../../../src/tracking/bot/context.ts";
import { CLOUD_RANGES } from "../../../src/tracking/bot/data/cloud-ranges.ts";
import { CRAWLER_RANGES } from "../../../src/tracking/bot/data/crawler-ranges.ts";
import { GATEWAY_RANGES, GATEWAY_SPACE_OBSERVED } from "../../../src/tracking/bot/data/gateway-ranges.ts";
import { NETWORK_RANGES } from "../../../src/tracking/bot/data/ip-ranges.ts";
import { MAIL_NETBLOCKS } from "../../../src/tracking/bot/data/mail-netblocks.ts";
import { MX_GATEWAYS } from "../../../src/tracking/bot/data/mx-gateways.ts";
import { UA_PATTERNS } from "../../../src/tracking/bot/data/ua-patterns.ts";
import { IP, UA } from "./signals.ts";

describe("signature data", () => {
  test("every CIDR parses and every set names a source", () => {
    for (const set of [...NETWORK_RANGES, ...MAIL_NETBLOCKS]) {
      expect(set.source.length).toBeGreaterThan(10);
      for (const cidr of set.cidrs) expect(parseCidr(cidr), `${set.family} ${cidr}`).toBeDefined();
    }
  });

  test("no range is listed under two roles (a human-carrying range must not hide under a scanner)", () => {
    const sets = [...NETWORK_RANGES, ...MAIL_NETBLOCKS];
    const seen = createIpRangeMatcher(sets.flatMap((s) => s.cidrs.map((c) => [c, s.family] as const)));
    for (const set of sets) {
      for (const cidr of set.cidrs) {
        const first = cidr.split("/")[0] ?? "";
        expect(seen.lookup(first), cidr).toBe(set.family);
      }
    }
  });

  test("Google's whole SPF netblocks are its service space: its mail and link checks, not people's clicks (issue #38)", () => {
    const ctx = createClassifierContext();
    for (const ip of ["2607:f8b0:4864:20::22a", "173.194.69.27", "108.177.15.26", "2a00:1450:4010:c05::1b", "66.249.84.22"]) {
      expect(ctx.networks.lookup(ip), ip).toEqual({ family: "google", role: "google" });
    }
  });

  test("gateways' published ranges name the vendor page and the date read, and keep their role", () => {
    const ctx = createClassifierContext();
    for (const set of GATEWAY_RANGES) {
      expect(set.source, set.family).toMatch(/https:\/\/\S+/);
      expect(set.source, set.family).toMatch(/read \d{4}-\d{2}-\d{2}/);
      for (const cidr of set.cidrs) expect(ctx.networks.lookup(cidr.split("/")[0] ?? ""), cidr).toEqual({ family: set.family, role: set.role });
    }
    expect(ctx.networks.lookup("209.222.87.254")).toEqual({ family: "barracuda", role: "scanner" });
    expect(ctx.networks.lookup("68.232.143.124")).toEqual({ family: "cisco", role: "scanner" });
    expect(ctx.networks.lookup("41.74.203.10")?.role).toBe("scanner-probable");
  });

  test("Cisco's Threat Defense hosts, its Cloud Gateway space as customers' SPF records publish it, Sophos' relays seen in headers, Trend Micro's and Mimecast's own SPF netblocks and Trend Micro's own block are their space (issue #38)", () => {
    const ctx = createClassifierContext();
    for (const set of GATEWAY_SPACE_OBSERVED) expect(set.source, set.family).toMatch(/(SPF|Received headers|block lists).*read \d{4}-\d{2}-\d{2}/);
    for (const ip of ["3.41.135.140", "18.96.45.100", "18.96.227.161", "68.232.141.245", "68.232.159.254", "216.71.150.10", "216.71.145.155"]) {
      expect(ctx.networks.lookup(ip), ip).toEqual({ family: "cisco", role: "scanner" });
    }
    // Sophos Email's and Trend Micro Email Security's relays seen in public mail headers.
    for (const ip of ["94.140.18.111", "198.154.180.101", "35.159.27.143"]) expect(ctx.networks.lookup(ip), ip).toEqual({ family: "sophos", role: "scanner" });
    expect(ctx.networks.lookup("18.208.22.119")).toEqual({ family: "trend-micro", role: "scanner" });
    // Trend Micro's and Mimecast's own SPF records; Barracuda's egress beside Trend Micro's in one AWS /24 stays Barracuda's.
    expect(ctx.networks.lookup("13.238.202.10")).toEqual({ family: "trend-micro", role: "scanner" });
    expect(ctx.networks.lookup("18.185.115.202")?.family).toBe("barracuda");
    for (const ip of ["124.47.189.1", "170.10.145.9", "216.145.216.20"]) expect(ctx.networks.lookup(ip), ip).toEqual({ family: "mimecast", role: "scanner-probable" });
    // Sophos Email's production blocks, as its own infrastructure script lists them; AWS next to them stays AWS.
    for (const ip of ["103.246.251.9", "198.154.181.77", "34.253.219.200", "18.216.13.70"]) expect(ctx.networks.lookup(ip), ip).toEqual({ family: "sophos", role: "scanner" });
    expect(ctx.networks.lookup("35.159.28.144")?.family).toBe("aws");
    // Microsoft's services IPv6 allocation is probable space; the /48s Microsoft publishes inside it keep their roles.
    expect(ctx.networks.lookup("2a01:111:7148:f978::42")).toEqual({ family: "microsoft-services", role: "scanner-probable" });
    expect(ctx.networks.lookup("2a01:111:f400::25")).toEqual({ family: "microsoft-eop", role: "scanner" });
    // Trend Micro's own block, where its web gateway may carry people: probable, like Mimecast's.
    expect(ctx.networks.lookup("150.70.226.147")).toEqual({ family: "trend-micro", role: "scanner-probable" });
    // The /24 its Web Reputation re-fetches were seen from; not the rest of 216.104.0.0.
    expect(ctx.networks.lookup("216.104.15.142")).toEqual({ family: "trend-micro", role: "scanner-probable" });
    expect(ctx.networks.lookup("216.104.16.1")).toBeUndefined();
    // Next to the hosts seen: not Cisco's as far as anything published shows.
    for (const ip of ["3.41.135.160", "68.232.160.1", "216.71.143.1"]) expect(ctx.networks.lookup(ip)?.family, ip).not.toBe("cisco");
  });

  test("search engines' published crawler ranges are crawler space and never hide Google's mail netblocks", () => {
    const ctx = createClassifierContext();
    for (const set of CRAWLER_RANGES) {
      expect(set.role).toBe("crawler");
      expect(set.source).toMatch(/https:\/\/\S+\.json/);
      for (const cidr of set.cidrs) expect(ctx.networks.lookup(cidr.split("/")[0] ?? ""), cidr).toEqual({ family: set.family, role: "crawler" });
    }
    expect(ctx.networks.lookup("66.249.66.1")).toEqual({ family: "googlebot", role: "crawler" });
    expect(ctx.networks.lookup("2001:4860:4801:10::1")).toEqual({ family: "googlebot", role: "crawler" });
    expect(ctx.networks.lookup("13.66.139.5")).toEqual({ family: "bingbot", role: "crawler" });
    for (const set of MAIL_NETBLOCKS.filter((m) => m.family === "google")) {
      for (const cidr of set.cidrs) expect(ctx.networks.lookup(cidr.split("/")[0] ?? "")?.role, cidr).toBe(set.role);
    }
    expect(ctx.networks.lookup(IP.googleProxy)?.role).toBe("google");
  });

  test("Microsoft 365's service front-ends and Exchange Online's IPv6 are service space; EOP keeps its own /48 (issue #38)", () => {
    const ctx = createClassifierContext();
    for (const ip of ["52.105.18.4", "52.110.3.3", "13.107.136.10", "40.108.130.1", "104.146.130.4", "2a01:111:f402:3::1"]) {
      expect(ctx.networks.lookup(ip), ip).toEqual({ family: "microsoft-365", role: "mail-proxy-human" });
    }
    expect(ctx.networks.lookup("2603:1096:400::15")).toEqual({ family: "exchange-online", role: "mail-proxy-human" });
    expect(ctx.networks.lookup("2a01:111:f400:7c10::1")).toEqual({ family: "microsoft-eop", role: "scanner" });
  });

  test("Proofpoint's published service networks are its probable-scanner space", () => {
    const ctx = createClassifierContext();
    for (const ip of ["208.36.134.7", "208.84.66.1", "208.86.203.250", "209.66.100.100"]) {
      expect(ctx.networks.lookup(ip), ip).toMatchObject({ family: "proofpoint", role: "scanner-probable" });
    }
    expect(ctx.networks.lookup("209.66.100.63")).toBeUndefined();
  });

  test("cloud space parses, names its source, and never hides a vendor or people-carrying range", () => {
    const ctx = createClassifierContext();
    for (const set of CLOUD_RANGES) {
      expect(set.role).toBe("cloud");
      expect(set.source).toMatch(/ip-ranges\.json|ServiceTags_Public\.json|ServiceTags_AzureGovernment\.json|ipranges\/cloud\.json/);
      for (const cidr of set.cidrs) expect(parseCidr(cidr), cidr).toBeDefined();
    }
    for (const set of NETWORK_RANGES) {
      for (const cidr of set.cidrs) expect(ctx.networks.lookup(cidr.split("/")[0] ?? "")?.role, cidr).toBe(set.role);
    }
    expect(ctx.networks.lookup("35.156.8.243")).toEqual({ family: "aws", role: "cloud" });
    expect(ctx.networks.lookup("20.42.17.9")).toEqual({ family: "azure", role: "cloud" });
    // Azure Government, where GCC High's and DoD's Defender runs; its EOP hosts inside it stay EOP's.
    expect(ctx.networks.lookup("52.181.45.79")).toEqual({ family: "azure", role: "cloud" });
    expect(ctx.networks.lookup("52.227.182.149")?.family).toBe("microsoft-eop");
    // Google Cloud's customer space, apart from Google's own netblocks.
    expect(ctx.networks.lookup("34.141.2.3")).toEqual({ family: "gcp", role: "cloud" });
    // EOP inside Azure's published space stays EOP's (those prefixes are left out of the Azure list).
    expect(ctx.networks.lookup("40.107.1.5")?.family).toBe("microsoft-eop");
    expect(ctx.networks.lookup("81.2.69.160")).toBeUndefined();
  });

  test("MX suffixes are lower-case, dot-free at the ends and unique", () => {
    const suffixes = MX_GATEWAYS.map((g) => g.suffix);
    expect(new Set(suffixes).size).toBe(suffixes.length);
    for (const s of suffixes) expect(s).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  test("MX matching is on label boundaries and case-insensitive, with trailing dots", () => {
    const ctx = createClassifierContext();
    expect(ctx.matchMx(["MX0A-001.PPHOSTED.COM."])?.family).toBe("proofpoint");
    expect(ctx.matchMx(["notpphosted.com"])).toBeUndefined();
    expect(ctx.matchMx(["contoso-com.mail.protection.outlook.com"])?.role).toBe("mailbox-scanning");
    expect(ctx.matchMx(["hotmail-com.olc.protection.outlook.com"])?.family).toBe("outlook-consumer");
    expect(ctx.matchMx(["contoso-com.a1b2.mx.microsoft"])?.family).toBe("microsoft-365");
    // Trend Micro Email Security's regional serving sites (its MTA-STS page) are its gateway as the US and EU ones.
    for (const mx of ["acme.in.tmes-anz.trendmicro.com", "acme.in.tmems-jp.trendmicro.com", "acme.in.tmes-uae.trendmicro.com"]) {
      expect(ctx.matchMx([mx]), mx).toEqual({ family: "trend-micro", role: "gateway" });
    }
    // Microsoft 365 GCC High and DoD tenants, and their Exchange Online Protection's published ranges.
    expect(ctx.matchMx(["agency.mail.protection.office365.us"])).toEqual({ family: "microsoft-365", role: "mailbox-scanning" });
    for (const ip of ["23.103.208.10", "62.10.150.1", "2001:489a:2202:4::1"]) expect(ctx.networks.lookup(ip), ip).toEqual({ family: "microsoft-eop", role: "scanner" });
  });

  const uaTable: [string, string | undefined][] = [
    [UA.chromeWin, undefined],
    [UA.iosSafari, undefined],
    [UA.androidChrome, undefined],
    [UA.outlookDesktop, undefined],
    [UA.msOffice, "office-app"],
    [UA.appleMailMac, undefined],
    [UA.gmailProxy, "gmail-proxy"],
    [UA.gmailPrefetch, "gmail-prefetch"],
    [UA.yahooProxy, "yahoo-proxy"],
    [UA.bareMozilla, "bare-mozilla"],
    [UA.newOutlook, "outlook-webview"],
    [UA.officeDiscovery, "office-preflight"],
    [UA.curl, "tool"],
    [UA.headless, "headless"],
    [UA.slackbot, "unfurler"],
    [UA.barracuda, "scanner"],
    [UA.googlebot, "crawler"],
    // Korean services' own fetchers (issue #38): KakaoTalk's link preview, Naver's and Daum's crawlers; a person in
    // KakaoTalk's in-app browser sends KAKAOTALK, not kakaotalk-scrap.
    ["kakaotalk-scrap/1.0; +https://devtalk.kakao.com/", "unfurler"],
    ["Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)", "crawler"],
    ["Mozilla/5.0 (compatible; Daumoa/4.0; +http://cs.daum.net/)", "crawler"],
    ["Mozilla/5.0 (Linux; Android 15; SM-S928N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Mobile Safari/537.36 KAKAOTALK/11.2.0 (INAPP)", undefined],
    // Discord's embed fetcher sends exactly this old Firefox (discord/discord-api-docs#3872); a current one is a person's.
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10.10; rv:38.0) Gecko/20100101 Firefox/38.0", "unfurler"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:145.0) Gecko/20100101 Firefox/145.0", undefined],
  ];
  test.each(uaTable)("UA %p → %p", (ua, kind) => {
    expect(createClassifierContext().matchUserAgent(ua)?.kind as string | undefined).toBe(kind);
  });

  test("every UA pattern names a source", () => {
    for (const p of UA_PATTERNS) expect(p.source.length).toBeGreaterThan(5);
  });

  test("a UA naming a security vendor is its scanner, with or without the name's spaces (issue #38)", () => {
    const ctx = createClassifierContext();
    for (const ua of ["Mozilla/5.0 (compatible; CiscoSecureEmail)", "Mozilla/5.0 (compatible; TMES)", "Mozilla/5.0 (compatible; Cisco Secure Email)", "TrendMicro URL check"]) {
      expect(ctx.matchUserAgent(ua)?.kind, ua).toBe("scanner");
    }
    expect(ctx.matchUserAgent(UA.chromeWin)).toBeUndefined();
    expect(ctx.matchUserAgent("Mozilla/5.0 (compatible; TIMES reader)")?.kind).not.toBe("scanner");
  });

  test("Teams' link preview: Teams/<version>, a space, and Preview later on the same line", () => {
    const kind = (ua: string) => createClassifierContext().matchUserAgent(ua)?.kind;
    expect(kind("Mozilla/5.0 (Windows NT 10.0) Teams/1.5.00.2164 Electron/8.5.1 Preview")).toBe("unfurler");
    expect(kind("Teams/1.5 teams/2 x preview")).toBe("unfurler");
    expect(kind("Teams/1.5 Electron/8.5.1")).toBeUndefined();
    expect(kind("Teams/1.5\nPreviews")).not.toBe("unfurler"); // (a lone "Preview" is a crawler's, isbot's list says)
    expect(kind("Teams/1.5 x\nTeams/2 Previews")).toBe("unfurler");
  });

  // A user agent is the stranger's to write (16 KB over HTTP, any size through the bot API): as
  // `Teams\/[\d.]+ .*Preview` each "Teams/1 " rescanned the rest (64 KB: 0.4 s, 1 MB: minutes).
  test("isbot's list, last, names the long tail that announces itself; browsers and mail UAs keep their kinds", () => {
    const kind = (ua: string) => createClassifierContext().matchUserAgent(ua);
    expect(kind("LinkChecker/10.5 (+https://linkchecker.github.io/linkchecker/)")).toEqual({ kind: "listed-bot", family: "declared-bot" });
    expect(kind("Mozilla/5.0 (compatible)")?.kind).toBe("listed-bot");
    expect(kind(UA.chromeWin)).toBeUndefined();
    expect(kind(UA.iosSafari)).toBeUndefined();
    expect(kind("Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)")?.kind).toBe("gmail-proxy");
    expect(kind("Mozilla/4.0 (compatible; ms-office; MSOffice 16)")?.kind).toBe("office-app");
  });

  test("a 1 MB user agent of repeated 'Teams/1 ' is read in one pass", () => {
    const ua = "Teams/1 ".repeat(125_000);
    expect(createClassifierContext().matchUserAgent(ua)).toBeUndefined();
    expect(createClassifierContext().matchUserAgent(`${ua}Preview`)?.kind).toBe("unfurler");
  });

  test("parseRangeList reads Apple's CSV (prefix in column 1) and returns bad lines", () => {
    const csv = "172.224.226.0/27,GB,GB-EN,London,\n2a02:26f7:b3c0:4000::/64,DE,DE-BE,Berlin,\n# comment\nbogus,US,,,\n";
    expect(parseRangeList(csv)).toEqual({ cidrs: ["172.224.226.0/27", "2a02:26f7:b3c0:4000::/64"], rejected: ["bogus,US,,,"] });
  });
});
