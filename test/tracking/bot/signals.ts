// Shared signal fixtures for the classifier table tests: UAs and addresses quoted in the research.

import type { InteractionSignals } from "../../../src/tracking/bot/types.ts";

export const UA = {
  chromeWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
  chrome97Win: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/97.0.4692.99 Safari/537.36",
  // Stale (below 122, what Defender pins) but not below 100: a browser a managed desktop may still run.
  chrome114Win: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.199 Safari/537.36",
  ie11: "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko",
  chrome109Win7: "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36",
  iosSafari: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  androidChrome: "Mozilla/5.0 (Linux; Android 15; Pixel 9 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
  appleMailMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
  outlookDesktop: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)",
  msOffice: "Mozilla/4.0 (compatible; ms-office; MSOffice 16)",
  newOutlook:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/117.0.0.0 Safari/537.36 Edg/117.0.2045.47 OneOutlook/1.2023.927.100",
  officeDiscovery: "Microsoft Office Existence Discovery",
  gmailProxy: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  gmailPrefetch:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.246 Mozilla/5.0",
  yahooProxy: "Mozilla/5.0 (compatible; YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html)",
  bareMozilla: "Mozilla/5.0",
  curl: "curl/8.7.1",
  pythonRequests: "python-requests/2.32.3",
  headless: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
  slackbot: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  facebook: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  barracuda: "Mozilla/5.0 (compatible; Barracuda Sentinel)",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
} as const;

export const IP = {
  eop: "104.47.1.254",
  eop2: "40.107.235.17",
  eopV6: "2a01:111:f403:c000::1",
  barracudaEgd: "209.222.82.14",
  proofpoint: "148.163.130.5",
  mimecast: "207.211.31.120",
  cisco: "68.232.143.124",
  appleV4: "172.225.5.4",
  appleV6: "2a04:4e41:12a0::1",
  googleProxy: "66.249.84.22",
  exchangeOnline: "40.97.1.1",
  home: "81.2.69.160",
  mobileV6: "2607:fb90:1234:5678::1",
  azure: "20.42.17.9",
  aws: "35.156.8.243",
  barracudaInAws: "3.24.133.130",
} as const;

export const MX = {
  m365: ["contoso-com.mail.protection.outlook.com"],
  proofpoint: ["mx0a-00123456.pphosted.com", "mx0b-00123456.pphosted.com"],
  mimecast: ["us-smtp-inbound-1.mimecast.com."],
  gmail: ["gmail-smtp-in.l.google.com"],
  outlookCom: ["hotmail-com.olc.protection.outlook.com."],
} as const;

export function signals(overrides: Partial<InteractionSignals> & Pick<InteractionSignals, "action">): InteractionSignals {
  return { ip: IP.home, userAgent: UA.chromeWin, method: "GET", ...overrides };
}
