// Input and output shapes of the bot classifier, shared by the classifier, the interaction tracker
// and callers (tracking endpoints, the bot-detection API). No logic lives here.

export type InteractionAction = "open" | "click";

export type Verdict = "human" | "bot" | "unknown";

/** How one message's interactions cluster in time, as produced by createInteractionTracker. */
export interface InteractionPattern {
  /** Distinct links (honeypot included) hit on this message within 1 s of this interaction. */
  distinctLinksInSecond: number;
  /** Distinct links hit within the burst window (5 s by default). */
  distinctLinksInBurst: number;
  /** Distinct links hit within the pattern window (60 s by default). */
  distinctLinksInWindow: number;
  /** Number of tracked links in the message, when the sender knows it (honeypot excluded). */
  linkCount?: number;
  /**
   * The links are the caller's guesses, not the links clicked (the bot API without a `url`: a second
   * of a client's clicks counts as one link). Then two of them are a person clicking one link again as
   * well as a scanner's two links, and each pattern rule needs one more of them: no pair condemns,
   * and a burst is four within 5 s.
   */
  linksInferred?: boolean;
}

/** What one visitor (ip and UA) clicked across messages within the spread window (30 min), this click included. */
export interface SpreadPattern {
  /** Distinct recipients whose mail the visitor clicked. */
  recipients: number;
  /** Distinct recipient domains among them (a corporate NAT clicks one). */
  domains: number;
  /** Distinct recipients whose message had no open (pixel) before the click. */
  unopened: number;
}

export interface InteractionSignals {
  /** Client IP as seen by the tracking endpoint (after trusted-proxy unwrapping); "" if unknown. */
  ip: string;
  /** Raw User-Agent header; "" when absent. */
  userAgent: string;
  action: InteractionAction;
  /** HTTP method of the request; defaults to GET. */
  method?: string;
  /** Seconds between delivery (or send, if delivery is unknown) and this interaction. */
  secondsSinceDelivery?: number;
  /** MX hosts of the recipient's domain, preferred first; undefined when not looked up. */
  mxHosts?: readonly string[];
  /** The same (ip, user agent) pair hit a honeypot link within the honeypot memory's TTL. */
  hasHoneypotHit?: boolean;
  pattern?: InteractionPattern;
  /** For a click: whether its message's open pixel was fetched before it; undefined when not tracked. */
  wasOpened?: boolean;
  /** Across messages, for clicks; undefined when not tracked. */
  spread?: SpreadPattern;
}

export interface BotVerdict {
  verdict: Verdict;
  /** True only for verdict "bot"; "unknown" gives the benefit of the doubt. */
  isBot: boolean;
  /** Short machine-readable reasons, most decisive first (e.g. "network:microsoft-eop"). */
  reasons: string[];
  /** Which known family the interaction belongs to, when one is recognised. */
  family?: string;
}

/** Time windows and thresholds; every field has a default in DEFAULT_THRESHOLDS. */
export interface ClassifierThresholds {
  /** Interactions this soon after delivery cannot be a person reading the message. */
  instantSeconds: number;
  /** Delivery-time scanning window in which weak signals (stale or empty UA) become decisive. */
  scanWindowSeconds: number;
  /** Window in which a match on a browser-isolation vendor network counts as its scanner. */
  probableNetworkWindowSeconds: number;
  /** Window in which a honeypot hit by the same (ip, UA) counts without further corroboration. */
  honeypotWindowSeconds: number;
  /** Window in which a click from cloud space on mail behind a security gateway is its scanner. */
  gatewayCloudWindowSeconds: number;
  /** Distinct links within one second that no person produces. */
  linksInSecond: number;
  /** Distinct links within the burst window that no person produces. */
  linksInBurst: number;
  /** Minimum link count for the "clicked every link within the window" rule. */
  allLinksMinimum: number;
  /** Distinct recipients, of at least `spreadDomains` domains, one visitor clicks in the spread window that no person does. */
  spreadRecipients: number;
  spreadDomains: number;
  /** Windows Chrome majors below this are stale (scanners pin old builds). */
  staleChromeBelowMajor: number;
}
