// The one rule deciding which events suppress an address, as a table: every producer's events
// (MTA outcomes, inbound reports, tracking, accept time, purge) with the list they land on.
import { describe, expect, test } from "bun:test";
import type { MessageEvent } from "../../src/core/model.ts";
import { suppressionFor, suppressionsFor } from "../../src/core/suppression-policy.ts";

const T = 1_800_000_000_000;
const ev = (e: Partial<MessageEvent>): MessageEvent => ({ id: "e1", type: "failed", messageId: "m1", recipient: "Bob@Example.COM",
  domain: "a.test", timestamp: T, tags: [], metadata: {}, ...e });

const CASES: [string, Partial<MessageEvent>, { type: string; code: string; reason: string } | null][] = [
  ["remote 550 refusal (MTA)", { severity: "permanent", code: 550, enhancedCode: "5.1.1", description: "no such user" }, { type: "bounces", code: "550", reason: "no such user" }],
  ["remote 554 without an enhanced code", { severity: "permanent", code: 554, description: "rejected" }, { type: "bounces", code: "554", reason: "rejected" }],
  ["DNS: the domain takes no mail (5.1.x, no SMTP code)", { severity: "permanent", enhancedCode: "5.1.2", description: "no MX" }, { type: "bounces", code: "5.1.2", reason: "no MX" }],
  ["local policy: sending domain deleted (5.7.1, no code)", { severity: "permanent", enhancedCode: "5.7.1", description: "sending domain deleted" }, null],
  ["queue lifetime ran out", { severity: "permanent", code: 421, reason: "old", description: "gave up after 5 attempts" }, null],
  ["accept-time refusal of a suppressed address (605)", { severity: "permanent", code: 605, reason: "suppress-bounce", description: "Not delivering to previously bounced address" }, null],
  ["administrator's purge", { severity: "permanent", description: "purged from the queue by the administrator" }, null],
  ["a temporary failure", { type: "deferred", severity: "temporary", code: 451, description: "try later" }, null],
  ["a failed event marked temporary", { severity: "temporary", code: 550 }, null],
  ["inbound DSN failure", { severity: "permanent", code: 550, enhancedCode: "5.1.1", description: "user unknown", mx: "mx.b.test" }, { type: "bounces", code: "550", reason: "user unknown" }],
  ["complaint (ARF)", { type: "complained", description: "abuse" }, { type: "complaints", code: "", reason: "complaint (ARF)" }],
  ["unsubscribe link", { type: "unsubscribed" }, { type: "unsubscribes", code: "", reason: "unsubscribe link" }],
  ["one-click List-Unsubscribe", { type: "unsubscribed", url: "list-unsubscribe" }, { type: "unsubscribes", code: "", reason: "one-click unsubscribe (RFC 8058)" }],
  ["delivered", { type: "delivered", code: 250 }, null],
  ["accepted", { type: "accepted" }, null],
  ["opened", { type: "opened" }, null],
  ["clicked", { type: "clicked", url: "https://x.test" }, null],
];

describe("suppressionFor", () => {
  for (const [name, event, want] of CASES) {
    test(name, () => {
      const got = suppressionFor(ev(event));
      if (!want) return expect(got).toBeNull();
      expect(got).toEqual({ domain: "a.test", address: "bob@example.com", scope: null, createdAt: T, ...want } as never);
    });
  }

  test("a long remote reply is cut to 500 characters", () => {
    expect(suppressionFor(ev({ severity: "permanent", code: 550, description: "x".repeat(2_000) }))?.reason.length).toBe(500);
  });

  test("a batch yields one suppression per suppressing event, in order", () => {
    const list = suppressionsFor([ev({ type: "delivered" }), ev({ type: "complained", recipient: "c@x.test" }), ev({ type: "unsubscribed", recipient: "u@x.test" })]);
    expect(list.map((s) => [s.type, s.address])).toEqual([["complaints", "c@x.test"], ["unsubscribes", "u@x.test"]]);
  });
});
