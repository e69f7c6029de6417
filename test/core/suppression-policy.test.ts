// The one rule deciding which events suppress an address, as a table: hard bounces at once,
// soft bounces and blocks never on their own, deferrals and expiry never, repeated soft bounces
// only when configured, complaints and unsubscribes always.
import { describe, expect, test } from "bun:test";
import type { MessageEvent } from "../../src/core/model.ts";
import { isSoftBounce, reportListFor, suppressionFor, suppressionsFor } from "../../src/core/suppression-policy.ts";

const T = 1_800_000_000_000;
const ev = (e: Partial<MessageEvent>): MessageEvent => ({ id: "e1", type: "failed", messageId: "m1", recipient: "Bob@Example.COM",
  domain: "a.test", timestamp: T, tags: [], metadata: {}, ...e });

const CASES: [string, Partial<MessageEvent>, { type: string; code: string; reason: string } | null][] = [
  ["hard: remote 550 5.1.1", { severity: "permanent", code: 550, enhancedCode: "5.1.1", description: "no such user", bounceClass: 10 }, { type: "bounces", code: "550", reason: "no such user" }],
  ["hard, unclassified event: classified from its text", { severity: "permanent", code: 550, enhancedCode: "5.0.0", description: "550 5.0.0 User unknown" }, { type: "bounces", code: "550", reason: "550 5.0.0 User unknown" }],
  ["hard: DNS says the domain takes no mail (5.1.x, no SMTP code)", { severity: "permanent", enhancedCode: "5.1.2", description: "no MX" }, { type: "bounces", code: "5.1.2", reason: "no MX" }],
  ["soft: mailbox full", { severity: "permanent", code: 552, enhancedCode: "5.2.2", description: "over quota", bounceClass: 22 }, null],
  ["block: listed IP", { severity: "permanent", code: 554, enhancedCode: "5.7.1", description: "blocked using zen.spamhaus.org", bounceClass: 51 }, null],
  ["block: spam content", { severity: "permanent", code: 550, enhancedCode: "5.7.1", description: "likely unsolicited mail", bounceClass: 52 }, null],
  ["block: 554 'rejected' without an enhanced code", { severity: "permanent", code: 554, description: "rejected" }, null],
  ["local policy: sending domain deleted (5.7.1, no code)", { severity: "permanent", enhancedCode: "5.7.1", description: "sending domain deleted" }, null],
  ["queue lifetime ran out", { severity: "permanent", code: 421, reason: "old", description: "gave up after 5 attempts", bounceClass: 24 }, null],
  ["accept-time refusal of a suppressed address", { severity: "permanent", reason: "suppressed", suppressedBy: "bounces" }, null],
  ["cancelled scheduled send", { severity: "permanent", reason: "cancelled", description: "scheduled send cancelled" }, null],
  ["administrator's purge", { severity: "permanent", description: "purged from the queue by the administrator", bounceClass: 25 }, null],
  ["deferral (4xx, or a delayed DSN)", { type: "deferred", severity: "temporary", code: 451, description: "try later", bounceClass: 70 }, null],
  ["a failed event marked temporary", { severity: "temporary", code: 550 }, null],
  ["complaint (ARF)", { type: "complained", description: "abuse" }, { type: "complaints", code: "", reason: "complaint (ARF)" }],
  ["unsubscribe link", { type: "unsubscribed" }, { type: "unsubscribes", code: "", reason: "unsubscribe link" }],
  ["one-click List-Unsubscribe", { type: "unsubscribed", url: "list-unsubscribe" }, { type: "unsubscribes", code: "", reason: "one-click unsubscribe (RFC 8058)" }],
  ["unsubscribe group link", { type: "unsubscribed", unsubscribeGroup: 12 }, { type: "group:12", code: "", reason: "unsubscribe group link" }],
  ["delivered", { type: "delivered", code: 250 }, null],
  ["opened", { type: "opened" }, null],
];

describe("suppressionFor", () => {
  for (const [name, event, want] of CASES) {
    test(name, () => {
      const got = suppressionFor(ev(event));
      if (!want) return expect(got).toBeNull();
      expect(got).toEqual({ domain: "a.test", address: "bob@example.com", scope: null, createdAt: T, ...want } as never);
    });
  }

  test("repeated soft bounces suppress only when configured, at the limit", () => {
    const full = ev({ severity: "permanent", code: 552, enhancedCode: "5.2.2", description: "over quota", bounceClass: 22 });
    const policy = { limit: 3, windowMs: 7 * 86_400_000 };
    expect(suppressionFor(full, { recentSoftBounces: 10 })).toBeNull(); // off by default
    expect(suppressionFor(full, { policy, recentSoftBounces: 1 })).toBeNull();
    expect(suppressionFor(full, { policy, recentSoftBounces: 2 })).toMatchObject({ type: "bounces", reason: "repeated soft bounces (3): over quota" });
    const block = ev({ severity: "permanent", code: 554, description: "spam", bounceClass: 52 });
    expect(suppressionFor(block, { policy, recentSoftBounces: 50 })).toBeNull(); // blocks never count
    expect([isSoftBounce(full), isSoftBounce(block), isSoftBounce(ev({ type: "deferred", bounceClass: 22 }))]).toEqual([true, false, false]);
  });

  test("a batch yields one suppression per suppressing event, in order", () => {
    const list = suppressionsFor([ev({ type: "delivered" }), ev({ type: "complained", recipient: "c@x.test" }), ev({ type: "unsubscribed", recipient: "u@x.test" })]);
    expect(list.map((s) => [s.type, s.address])).toEqual([["complaints", "c@x.test"], ["unsubscribes", "u@x.test"]]);
  });
});

// The report-only lists (SendGrid's blocks and invalid emails): what a receiver's refusal says.
const REPORT_CASES: [string, Partial<MessageEvent>, "blocks" | "invalid" | null][] = [
  ["block: listed IP", { severity: "permanent", code: 554, enhancedCode: "5.7.1", description: "blocked using zen.spamhaus.org", bounceClass: 51 }, "blocks"],
  ["block: spam content", { severity: "permanent", code: 550, enhancedCode: "5.7.1", description: "likely unsolicited mail", bounceClass: 52 }, "blocks"],
  ["soft bounce that ended the attempt: mailbox full", { severity: "permanent", code: 552, enhancedCode: "5.2.2", description: "over quota", bounceClass: 22 }, "blocks"],
  ["hard: no such user (a bounce, not invalid)", { severity: "permanent", code: 550, enhancedCode: "5.1.1", description: "no such user", bounceClass: 10 }, null],
  ["invalid: bad destination domain (5.1.2)", { severity: "permanent", code: 550, enhancedCode: "5.1.2", description: "host unknown", bounceClass: 10 }, "invalid"],
  ["invalid: bad mailbox syntax (5.1.3)", { severity: "permanent", code: 553, enhancedCode: "5.1.3", description: "bad address syntax", bounceClass: 10 }, "invalid"],
  ["invalid: DNS says the domain takes no mail", { severity: "permanent", enhancedCode: "5.1.2", description: "no MX" }, "invalid"],
  ["auto-reply", { severity: "permanent", code: 550, description: "out of office", bounceClass: 60 }, null],
  ["accept-time drop", { severity: "permanent", reason: "suppressed", suppressedBy: "bounces" }, null],
  ["queue lifetime ran out", { severity: "permanent", code: 421, reason: "old", bounceClass: 24 }, null],
  ["local policy without a reply", { severity: "permanent", enhancedCode: "5.7.1", description: "sending domain deleted" }, null],
  ["a deferral", { type: "deferred", severity: "temporary", code: 451, bounceClass: 70 }, null],
];

describe("reportListFor", () => {
  for (const [name, event, want] of REPORT_CASES) {
    test(name, () => {
      const got = reportListFor(ev(event));
      if (!want) return expect(got).toBeNull();
      expect(got).toMatchObject({ type: want, address: "bob@example.com", domain: "a.test", scope: null });
    });
  }

  test("a batch lists a block beside nothing, and an invalid address beside its bounce", () => {
    const list = suppressionsFor([ev({ severity: "permanent", code: 554, enhancedCode: "5.7.1", description: "spam", bounceClass: 52 }),
      ev({ severity: "permanent", code: 550, enhancedCode: "5.1.2", description: "host unknown", bounceClass: 10, recipient: "x@nowhere.test" })]);
    expect(list.map((s) => [s.type, s.address, s.code])).toEqual([["blocks", "bob@example.com", "5.7.1"], ["bounces", "x@nowhere.test", "550"], ["invalid", "x@nowhere.test", "5.1.2"]]);
  });
});
