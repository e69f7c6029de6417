// Recipients, organisations and messages of the independent evaluation. The mix follows the research
// notes' proposal (shared/docs/bots-deliverability.md §3.5, MX shares from §1.3); the MX host names
// are the vendors' documented patterns. Business recipients sit in organisations with one gateway,
// one office NAT address and, often, one standard browser build.

import { desktopBrowser, iosSafari, mobileBrowser, windowsChrome, windowsEdge } from "./agents.ts";
import { addressOf, broadbandV4, carrierV4, carrierV6 } from "./facts.ts";
import type { Rand } from "./rng.ts";

export type Gateway = "proofpoint" | "mimecast" | "barracuda" | "cisco" | "trend-micro" | "sophos";
export type Provider = "gmail" | "outlook" | "yahoo" | "icloud" | "m365" | "workspace" | Gateway;

export interface Org {
  name: string;
  provider: Provider;
  mxHosts: string[];
  /** Microsoft 365 behind the MX with Defender's Safe Links on (a gateway in front of M365 means two scanners). */
  hasSafeLinks: boolean;
  natIp: string;
  standardUa: string | undefined;
}

export interface Recipient {
  id: string;
  domain: string;
  org: Org;
  isBusiness: boolean;
  device: "desktop" | "mobile";
  ua: string;
  /** Where this person's clicks come from, and the scenario it stands for. */
  network: "home" | "office-nat" | "cloud-desktop" | "aws-desktop" | "isolation" | "private-relay" | "mobile";
  fixedIp: string;
  usesAppleMailMpp: boolean;
  usesGmailWeb: boolean;
}

export interface Message {
  id: string;
  recipient: Recipient;
  deliveredAt: number;
  linkCount: number;
  /** The sender looked the MX up (90%) and knows the delivery time (90%). */
  isMxKnown: boolean;
  isTimingKnown: boolean;
}

const CONSUMER: [Provider, string, string[], number][] = [
  ["gmail", "gmail.com", ["gmail-smtp-in.l.google.com", "alt1.gmail-smtp-in.l.google.com"], 30],
  ["outlook", "outlook.com", ["outlook-com.olc.protection.outlook.com"], 8],
  ["yahoo", "yahoo.com", ["mta5.am0.yahoodns.net", "mta6.am0.yahoodns.net"], 6],
  ["icloud", "icloud.com", ["mx01.mail.icloud.com", "mx02.mail.icloud.com"], 5],
];

const BUSINESS: [Provider, number][] = [
  ["m365", 22], ["workspace", 10], ["proofpoint", 6], ["mimecast", 5], ["barracuda", 3], ["cisco", 2],
  ["trend-micro", 1.5], ["sophos", 1.5],
];

function businessMx(rand: Rand, provider: Provider, name: string): string[] {
  const n = rand.int(100000, 999999);
  switch (provider) {
    case "m365": return [`${name}-com.mail.protection.outlook.com`];
    case "workspace": return ["aspmx.l.google.com", "alt1.aspmx.l.google.com"];
    case "proofpoint": return [`mx0a-00${n}.pphosted.com`, `mx0b-00${n}.pphosted.com`];
    case "mimecast": return ["us-smtp-inbound-1.mimecast.com", "us-smtp-inbound-2.mimecast.com"];
    case "barracuda": return [`d${n}.a.ess.barracudanetworks.com`];
    case "cisco": return [`esa1.${name}.iphmx.com`, `esa2.${name}.iphmx.com`];
    case "trend-micro": return [`${name}.in.tmes.trendmicro.com`];
    default: return [`mx-01-us-west-2.prod.hydra.sophos.com`, `mx-02-us-west-2.prod.hydra.sophos.com`];
  }
}

function createOrg(rand: Rand, index: number): Org {
  const provider = rand.weighted(BUSINESS);
  const name = `org${index}`;
  const isGoogle = provider === "workspace";
  return {
    name,
    provider,
    mxHosts: businessMx(rand, provider, name),
    // Defender for Office 365's built-in protection applies Safe Links to licensed tenants (safe-links-about.md).
    hasSafeLinks: !isGoogle && rand.chance(provider === "m365" ? 0.7 : 0.4),
    natIp: broadbandV4(rand),
    standardUa: rand.chance(0.6) ? rand.pick([windowsChrome(rand.int(134, 142)), windowsEdge(rand.int(134, 142))]) : undefined,
  };
}

function businessNetwork(rand: Rand, org: Org): Recipient["network"] {
  const isIsolationVendor = org.provider === "proofpoint" || org.provider === "mimecast";
  if (isIsolationVendor && rand.chance(0.15)) return "isolation";
  // Azure Virtual Desktop / Windows 365, and Amazon WorkSpaces: people reading mail from cloud space.
  if (rand.chance(0.08)) return "cloud-desktop";
  if (rand.chance(0.03)) return "aws-desktop";
  return rand.chance(0.65) ? "office-nat" : rand.chance(0.5) ? "mobile" : "home";
}

function fixedIpFor(rand: Rand, network: Recipient["network"], org: Org): string {
  switch (network) {
    case "office-nat": return org.natIp;
    case "cloud-desktop": return addressOf(rand, "azure");
    case "aws-desktop": return addressOf(rand, "aws");
    case "isolation": return addressOf(rand, org.provider === "mimecast" ? "mimecast" : "proofpoint");
    case "mobile": return rand.chance(0.5) ? carrierV6(rand) : carrierV4(rand);
    default: return broadbandV4(rand);
  }
}

function createRecipient(rand: Rand, index: number, orgs: Org[]): Recipient {
  const isBusiness = rand.chance(0.51);
  let org: Org;
  let domain: string;
  if (isBusiness) {
    org = rand.pick(orgs);
    domain = `${org.name}.example`;
  } else {
    const [provider, dom, mx] = rand.weighted(CONSUMER.map(([p, d, m, w]) => [[p, d, m] as const, w] as const));
    org = { name: dom, provider, mxHosts: [...mx], hasSafeLinks: false, natIp: "", standardUa: undefined };
    domain = dom;
  }
  const device = rand.chance(isBusiness ? 0.3 : 0.6) ? "mobile" : "desktop";
  let network: Recipient["network"] = isBusiness ? businessNetwork(rand, org) : device === "mobile" ? "mobile" : "home";
  // iCloud+ subscribers browse through Private Relay (Safari); most iCloud users, some others on iOS.
  const isRelay = !isBusiness && rand.chance(org.provider === "icloud" ? 0.4 : 0.1);
  if (isRelay) network = "private-relay";
  const ua = network === "office-nat" && org.standardUa ? org.standardUa
    : network === "cloud-desktop" || network === "aws-desktop" ? windowsEdge(rand.int(136, 143))
    : network === "isolation" ? windowsChrome(rand.int(136, 143))
    : isRelay ? iosSafari(rand)
    : device === "mobile" ? mobileBrowser(rand) : desktopBrowser(rand);
  return {
    id: `r${index}`, domain, org, isBusiness, device, ua, network,
    fixedIp: fixedIpFor(rand, network, org),
    // Apple Mail users with MPP on: ~40% of consumer and ~20% of business recipients (research §3.4).
    usesAppleMailMpp: rand.chance(isBusiness ? 0.2 : org.provider === "icloud" ? 0.8 : 0.4),
    usesGmailWeb: org.provider === "gmail" && rand.chance(0.6),
  };
}

export function createPopulation(rand: Rand, recipients: number, messages: number): Message[] {
  const orgs = Array.from({ length: Math.max(1, Math.round(recipients / 40)) }, (_, i) => createOrg(rand, i));
  const people = Array.from({ length: recipients }, (_, i) => createRecipient(rand, i, orgs));
  const start = Date.UTC(2026, 10, 2) / 1000;
  return Array.from({ length: messages }, (_, i) => ({
    id: `m${i}`,
    recipient: rand.pick(people),
    // Campaigns spread over two weeks; each message delivered within the hour of its send.
    deliveredAt: start + rand.int(0, 14 * 86400),
    // Research §3.2: 3-15 links per message.
    linkCount: rand.int(3, 15),
    isMxKnown: rand.chance(0.9),
    isTimingKnown: rand.chance(0.9),
  }));
}
