// The storage port of TLS-RPT as a sender (RFC 8460; part of ControlStore, in its own file to keep
// store-port.ts short): outbound TLS sessions counted per UTC day, policy domain, policy type, MX
// host and result, shared by every node, so one daily report covers the whole installation.

/** `policyType`: RFC 8460 §4.4 "tlsa", "sts" or "no-policy-found"; `result`: "success" or a §4.3 result-type. */
export interface TlsSessionCount {
  policyDomain: string;
  policyType: "tlsa" | "sts" | "no-policy-found";
  mxHost: string;
  result: string;
  /** A failure's sending and receiving IP (RFC 8460 §4.3 failure-details), when known; counts differ by them. */
  sendingIp?: string;
  receivingIp?: string;
  /** The lines of the policy applied (RFC 8460 §4.3 policy-string: an MTA-STS policy's); counts differ by it. */
  policyString?: string[];
  count: number;
}

export interface TlsReportStore {
  /** Adds session counts to `day` (days since the epoch, UTC); forgets days older than a week before it. */
  addTlsSessions(day: number, counts: readonly TlsSessionCount[]): Promise<void>;
  /** Every count of `day`. */
  tlsSessions(day: number): Promise<TlsSessionCount[]>;
}
