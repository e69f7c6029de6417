// The rate metrics from events as the stats read them (core/stats: statKeyOf): per sending domain,
// accepted messages are the volume; hard and block bounces by bounce class, complaints; temporary
// failures, cancellations and suppressions are no bounces. And the complaint rules' two levels.
import { expect, test } from "bun:test";
import type { MessageEvent } from "../../src/core/model.ts";
import { statKeyOf } from "../../src/core/stats/stat-key.ts";
import type { StatFact } from "../../src/core/stats/facts.ts";
import { rateOf, tallyByDomain } from "../../src/alerts/rates.ts";
import { BUILT_IN_RULES, isOver } from "../../src/alerts/rules.ts";

let n = 0;
function fact(domain: string, e: Partial<MessageEvent> & Pick<MessageEvent, "type">): StatFact {
  const event = { id: `e${++n}`, messageId: `m${n}`, recipient: `r${n}@dest.test`, domain, timestamp: 1, tags: [], metadata: {}, ...e } as MessageEvent;
  return { at: 1, domain, tags: [], rcptDomain: "dest.test", campaign: "", template: "", ipPool: "", key: statKeyOf(event), n: 1, bytes: 0 };
}
const times = (k: number, f: () => StatFact) => Array.from({ length: k }, f);

test("volume, hard and block bounces and complaints per domain", () => {
  const facts = [
    ...times(1000, () => fact("a.test", { type: "accepted" })),
    ...times(30, () => fact("a.test", { type: "failed", severity: "permanent", code: 550, description: "5.1.1 User unknown", attempt: 1 })),
    ...times(20, () => fact("a.test", { type: "failed", severity: "permanent", code: 554, description: "5.7.1 blocked using zen.spamhaus.org", attempt: 1 })),
    ...times(7, () => fact("a.test", { type: "failed", severity: "temporary", code: 451, description: "4.7.1 try later", attempt: 1 })),
    ...times(5, () => fact("a.test", { type: "failed", severity: "permanent", reason: "suppressed", suppressedBy: "bounces" })),
    ...times(2, () => fact("a.test", { type: "complained" })),
    ...times(10, () => fact("b.test", { type: "accepted" })),
  ];
  const tally = tallyByDomain(facts);
  expect(tally.get("a.test")).toEqual({ volume: 1000, hard: 30, block: 20, complaints: 2 });
  expect(tally.get("b.test")).toEqual({ volume: 10, hard: 0, block: 0, complaints: 0 });
  const a = tally.get("a.test")!;
  expect([rateOf("hard_bounce_rate", a), rateOf("block_rate", a), rateOf("complaint_rate", a)]).toEqual([0.03, 0.02, 0.002]);
  expect(rateOf("hard_bounce_rate", { volume: 0, hard: 0, block: 0, complaints: 0 })).toBe(0);
});

test.each([
  [0.0009, []],
  [0.001, []],
  [0.002, ["complaint_rate_warn"]],
  [0.003, ["complaint_rate_warn"]],
  [0.0031, ["complaint_rate_warn", "complaint_rate"]],
])("complaint rate %p fires %p", (rate, rules) => {
  expect(BUILT_IN_RULES.filter((r) => r.metric === "complaint_rate" && isOver(r, rate)).map((r) => r.id)).toEqual(rules);
});

test("the certificate rule fires below its threshold; the others above", () => {
  const rule = (id: string) => BUILT_IN_RULES.find((r) => r.id === id)!;
  expect([isOver(rule("certificate"), 13.9), isOver(rule("certificate"), 14), isOver(rule("queue_age"), 7201), isOver(rule("queue_age"), 7200)])
    .toEqual([true, false, true, false]);
});
