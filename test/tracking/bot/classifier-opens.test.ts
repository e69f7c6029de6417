// Table tests: open signals → verdict, reason and family, per family and for the hard human cases.

import { describe, expect, test } from "bun:test";
import { classifyInteraction } from "../../../src/tracking/bot/classifier.ts";
import { createClassifierContext } from "../../../src/tracking/bot/context.ts";
import type { InteractionSignals, Verdict } from "../../../src/tracking/bot/types.ts";
import { IP, MX, UA, signals } from "./signals.ts";

const ctx = createClassifierContext();
const open = (o: Partial<InteractionSignals>): InteractionSignals => signals({ action: "open", ...o });

type Row = [name: string, s: InteractionSignals, verdict: Verdict, reason: string, family?: string];

const machineOpens: Row[] = [
  ["Apple MPP: bare UA from Apple egress", open({ ip: IP.appleV4, userAgent: UA.bareMozilla, secondsSinceDelivery: 40 }), "bot", "network:apple-egress", "apple-mpp"],
  ["Apple MPP over IPv6 egress", open({ ip: IP.appleV6, userAgent: UA.bareMozilla }), "bot", "network:apple-egress", "apple-mpp"],
  ["Apple MPP from a prefix newer than the snapshot: bare UA alone", open({ ip: "17.1.2.3", userAgent: UA.bareMozilla, secondsSinceDelivery: 7200 }), "bot", "ua:bare-mozilla", "apple-mpp"],
  ["Gmail prefetch UA from Google", open({ ip: IP.googleProxy, userAgent: UA.gmailPrefetch, secondsSinceDelivery: 3 }), "bot", "ua:gmail-prefetch", "gmail-prefetch"],
  ["Defender sandbox pixel from EOP", open({ ip: IP.eop, userAgent: UA.chrome97Win, secondsSinceDelivery: 20 }), "bot", "network:microsoft-eop", "microsoft-eop"],
  ["EOP IPv6 even when late", open({ ip: IP.eopV6, userAgent: UA.chromeWin, secondsSinceDelivery: 90_000 }), "bot", "network:microsoft-eop", "microsoft-eop"],
  ["Barracuda EGD range", open({ ip: IP.barracudaEgd, userAgent: UA.chromeWin }), "bot", "network:barracuda", "barracuda"],
  ["Proofpoint sandbox inside the delivery window", open({ ip: IP.proofpoint, secondsSinceDelivery: 45, mxHosts: MX.proofpoint }), "bot", "timing:delivery-window", "proofpoint"],
  ["Mimecast pre-scan inside the window", open({ ip: IP.mimecast, secondsSinceDelivery: 10 }), "bot", "network:mimecast", "mimecast"],
  ["Azure-pool sandbox: stale Chrome seconds after delivery", open({ ip: IP.azure, userAgent: UA.chrome97Win, secondsSinceDelivery: 25, mxHosts: MX.m365 }), "bot", "ua:stale-chrome", "microsoft-365"],
  ["anything within 2 s of delivery", open({ userAgent: UA.outlookDesktop, secondsSinceDelivery: 1 }), "bot", "timing:instant"],
  ["empty UA", open({ userAgent: "", secondsSinceDelivery: 5000 }), "bot", "ua:empty"],
  ["HEAD on the pixel", open({ method: "HEAD", secondsSinceDelivery: 5000 }), "bot", "method:head"],
  ["curl", open({ userAgent: UA.curl }), "bot", "ua:tool", "http-tool"],
  ["headless Chrome", open({ userAgent: UA.headless }), "bot", "ua:headless", "headless-browser"],
  ["Office existence discovery", open({ userAgent: UA.officeDiscovery }), "bot", "ua:office-preflight", "outlook-preflight"],
  ["Googlebot", open({ userAgent: UA.googlebot, ip: IP.googleProxy }), "bot", "ua:crawler", "crawler"],
];

const humanOpens: Row[] = [
  ["Gmail image proxy (isbot calls it a bot)", open({ ip: IP.googleProxy, userAgent: UA.gmailProxy, secondsSinceDelivery: 600, mxHosts: MX.gmail }), "human", "proxy:gmail-proxy"],
  ["Gmail image proxy seconds after delivery (user has Gmail open)", open({ ip: IP.googleProxy, userAgent: UA.gmailProxy, secondsSinceDelivery: 1 }), "human", "proxy:gmail-proxy"],
  ["Yahoo image proxy", open({ ip: "98.136.1.1", userAgent: UA.yahooProxy, secondsSinceDelivery: 9000 }), "human", "proxy:yahoo-proxy"],
  ["Outlook on the web via Exchange Online client range", open({ ip: IP.exchangeOnline, secondsSinceDelivery: 4000, mxHosts: MX.m365 }), "human", "proxy:exchange-online"],
  ["Outlook desktop from corporate NAT", open({ userAgent: UA.outlookDesktop, secondsSinceDelivery: 3600, mxHosts: MX.m365 }), "human", "no-bot-signal"],
  ["ms-office WinINet UA", open({ userAgent: UA.msOffice, secondsSinceDelivery: 300 }), "human", "no-bot-signal"],
  ["new Outlook renders the message for a person", open({ userAgent: UA.newOutlook, secondsSinceDelivery: 900 }), "human", "no-bot-signal"],
  ["Outlook for iOS loading a person's images with its own product token (isbot's list names it)", open({ userAgent: "Outlook-iOS/2.0", secondsSinceDelivery: 900 }), "human", "no-bot-signal"],
  ["Apple Mail without MPP from the device", open({ userAgent: UA.appleMailMac, secondsSinceDelivery: 5000 }), "human", "no-bot-signal"],
  ["fast reader 30 s after delivery on a current browser", open({ ip: IP.mobileV6, userAgent: UA.androidChrome, secondsSinceDelivery: 30 }), "human", "no-bot-signal"],
  ["Azure VDI user later in the day", open({ ip: IP.azure, secondsSinceDelivery: 8000, mxHosts: MX.m365 }), "human", "no-bot-signal"],
  ["browser isolation hours later from Proofpoint", open({ ip: IP.proofpoint, secondsSinceDelivery: 20_000 }), "human", "timing:after-window(browser-isolation)"],
  ["old Chrome, but an hour after delivery", open({ userAgent: UA.chrome109Win7, secondsSinceDelivery: 3600 }), "human", "no-bot-signal"],
  ["honeypot taint is ignored on shared Google proxy IPs", open({ ip: IP.googleProxy, userAgent: UA.gmailProxy, hasHoneypotHit: true, secondsSinceDelivery: 30 }), "human", "proxy:gmail-proxy"],
  ["timing and MX unknown, ordinary browser", open({}), "human", "no-bot-signal"],
];

const undecided: Row[] = [
  ["Proofpoint network with unknown timing", open({ ip: IP.proofpoint }), "unknown", "timing:unknown"],
  ["late honeypot hit by this ip+UA with nothing else", open({ hasHoneypotHit: true, secondsSinceDelivery: 7200 }), "unknown", "uncorroborated"],
];

describe("classifyInteraction: opens", () => {
  // Rest parameters: bun passes a `done` callback when a test function declares more parameters than a row has.
  test.each([...machineOpens, ...humanOpens, ...undecided])("%s", (...row) => {
    const [, s, verdict, reason, family] = row as unknown as Row;
    const v = classifyInteraction(s, ctx);
    expect(v.verdict).toBe(verdict);
    expect(v.isBot).toBe(verdict === "bot");
    expect(v.reasons).toContain(reason);
    if (family !== undefined) expect(v.family).toBe(family);
  });

  test("is pure: the same input gives the same verdict", () => {
    const s = open({ ip: IP.appleV4, userAgent: UA.bareMozilla });
    expect(classifyInteraction(s, ctx)).toEqual(classifyInteraction(s, ctx));
  });

  test("thresholds are configurable per context", () => {
    const strict = createClassifierContext({ thresholds: { instantSeconds: 60 } });
    const s = open({ userAgent: UA.outlookDesktop, secondsSinceDelivery: 30 });
    expect(classifyInteraction(s, ctx).verdict).toBe("human");
    expect(classifyInteraction(s, strict).reasons).toContain("timing:instant");
  });
});
