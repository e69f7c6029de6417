// What a shaped run is measured against (issue #41): the round-trip bound, the rate the MXes'
// connection limits allow when every reply is late, and the signing floor, `openssl speed
// rsa2048`'s sign time on this machine, which every DKIM-signed message pays once.
import { spawnSync } from "node:child_process";

/** The provider mix's shares per MX (shaped-mix.ts providerMix: the 200 small domains share one MX). */
export const MIX_SHARES: Record<string, number> = { gmail: 0.45, outlook: 0.2, yahoo: 0.1, small: 0.25 };

/**
 * The most msg/s the mix can reach when each reply comes `rttMs` late: a destination with `c`
 * connections and `rt` round trips per message takes at most c / (rt × RTT) msg/s, and it gets
 * its share of the mix, so the mix is capped by the smallest of c / (rt × RTT × share).
 * rt = 1 with CHUNKING (MAIL, RCPT and BDAT LAST in one write), 2 with PIPELINING and DATA.
 */
export function roundTripBound(rttMs: number, connections: number, roundTrips: number, shares = MIX_SHARES): { bound: number; by: string } {
  let best = { bound: Infinity, by: "" };
  for (const [name, share] of Object.entries(shares)) {
    const cap = connections / (roundTrips * (rttMs / 1000) * share);
    if (cap < best.bound) best = { bound: cap, by: name };
  }
  return best;
}

/** `openssl speed rsa2048`'s sign time in ms (null when openssl is missing or its output is not understood). */
export function rsaSignMs(seconds = 3): number | null {
  const r = spawnSync("openssl", ["speed", "-seconds", String(seconds), "rsa2048"], { encoding: "utf8" });
  // The summary line: "rsa 2048 bits 0.000290s 0.000010s 3448.3 100000.0"
  const m = /rsa\s+2048 bits\s+([\d.]+)s/.exec(r.stdout ?? "");
  return m ? Number(m[1]) * 1000 : null;
}
