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
];
