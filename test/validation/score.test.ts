import { describe, expect, test } from "bun:test";
import { decideVerdict, scoreSendex, type VerdictFacts } from "../../src/validation/score.ts";

const HEALTHY: VerdictFacts = {
  isValidSyntax: true, dns: "mx", hasBounced: false, smtp: "skipped", isDisposable: false, isRole: false,
  isFree: false, isSuspectedTypo: false, isUnusualLocal: false,
};
const facts = (over: Partial<VerdictFacts>): VerdictFacts => ({ ...HEALTHY, ...over });

describe("decideVerdict", () => {
  const CASES: [string, Partial<VerdictFacts>, string, string, number][] = [
    ["an SMTP-accepted mailbox is deliverable with a perfect score", { smtp: "accept" }, "deliverable", "accepted_email", 1],
    ["an unprobed address at a healthy domain is deliverable", {}, "deliverable", "accepted_email", 0.9],
    ["a free provider costs nothing", { isFree: true }, "deliverable", "accepted_email", 0.9],
    ["an unprobed role address stays deliverable", { isRole: true }, "deliverable", "accepted_email", 0.8],
    ["an A-record-only domain is risky", { dns: "implicit_mx" }, "risky", "low_deliverability", 0.75],
    ["bad syntax is undeliverable at zero", { isValidSyntax: false }, "undeliverable", "invalid_email", 0],
    ["a domain without records is undeliverable", { dns: "none" }, "undeliverable", "invalid_domain", 0],
    ["a null MX is undeliverable", { dns: "null_mx" }, "undeliverable", "invalid_domain", 0],
    ["a recorded bounce is undeliverable", { hasBounced: true, dns: "skipped" }, "undeliverable", "rejected_email", 0],
    ["an SMTP rejection is undeliverable", { smtp: "reject" }, "undeliverable", "rejected_email", 0],
    ["a DNS timeout is unknown", { dns: "timeout" }, "unknown", "timeout", 0.4],
    ["a DNS server failure is unknown", { dns: "error" }, "unknown", "timeout", 0.4],
    ["a disposable domain is risky and low", { isDisposable: true }, "risky", "low_quality", 0.1],
    ["a suspected typo is risky", { isSuspectedTypo: true }, "risky", "low_quality", 0.3],
    ["an accept-all domain is risky", { smtp: "accept_all" }, "risky", "low_deliverability", 0.6],
    ["an unreachable mail server is unknown", { smtp: "no_connect" }, "unknown", "no_connect", 0.6],
    ["a silent mail server is unknown", { smtp: "timeout" }, "unknown", "timeout", 0.6],
    ["a garbled SMTP answer is unknown", { smtp: "invalid_smtp" }, "unknown", "invalid_smtp", 0.6],
    ["a greylisting answer is unknown", { smtp: "unavailable" }, "unknown", "unavailable_smtp", 0.6],
  ];
  for (const [what, over, result, reason, sendex] of CASES) {
    test(what, () => expect(decideVerdict(facts(over))).toMatchObject({ result, reason, sendex }));
  }
});

describe("scoreSendex", () => {
  test("ranks evidence sensibly from best to worst", () => {
    const ladder = [
      facts({ smtp: "accept" }),
      facts({}),
      facts({ isRole: true }),
      facts({ dns: "implicit_mx" }),
      facts({ smtp: "accept_all" }),
      facts({ dns: "timeout" }),
      facts({ isSuspectedTypo: true }),
      facts({ isDisposable: true }),
      facts({ dns: "none" }),
    ].map(scoreSendex);
    expect([...ladder].sort((a, b) => b - a)).toEqual(ladder);
  });

  test("never lets a penalty combination leave 0..1", () => {
    const s = scoreSendex(facts({ dns: "implicit_mx", isRole: true, isUnusualLocal: true, isDisposable: true }));
    expect(s).toBeGreaterThanOrEqual(0);
    expect(s).toBeLessThanOrEqual(0.1);
  });

  test("keeps every deliverable verdict at or above 0.8", () => {
    const variants: Partial<VerdictFacts>[] = [{}, { isRole: true }, { isUnusualLocal: true }, { isFree: true, smtp: "accept" }];
    for (const v of variants) {
      const d = decideVerdict(facts(v));
      if (d.result === "deliverable") expect(d.sendex).toBeGreaterThanOrEqual(0.8);
    }
  });
});
