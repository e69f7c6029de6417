import { describe, expect, test } from "bun:test";
import { feedbackOf, type AttemptFacts } from "../../../src/mta/shaping/feedback.ts";
import { BUILT_IN_AUTOMATION, automationFor, type AutomationRule } from "../../../src/mta/shaping/rules.ts";

const T = 1_000_000;
const H = 3_600_000;
const d = (code: number | undefined, message: string, enhancedCode?: string): AttemptFacts => ({ kind: code && code >= 500 ? "failed" : code === 250 ? "delivered" : "deferred", code, message, enhancedCode });

describe("what an attempt tells the controller", () => {
  const table: [string, AttemptFacts, string | null, unknown][] = [
    ["delivered", d(250, "250 2.0.0 OK"), null, { kind: "answered" }],
    ["a refused recipient is still an answer", d(550, "550 5.1.1 no such user"), null, { kind: "answered" }],
    ["mailbox full is an answer", d(452, "452 4.2.2 mailbox full"), null, { kind: "answered" }],
    ["421 pushes back", d(421, "421 4.7.0 Try again later, closing connection"), null, { kind: "pushback", reply: "421 4.7.0 Try again later, closing connection" }],
    ["a 4xx about connections pushes back", d(451, "451 4.7.1 Too many connections from your IP"), null, { kind: "pushback", reply: "451 4.7.1 Too many connections from your IP" }],
    ["a refused greeting without a code pushes back", d(undefined, "Invalid greeting. response=421 busy: 421 busy", "4.5.0"), null, { kind: "pushback", reply: "Invalid greeting. response=421 busy: 421 busy" }],
    ["a connection failure pushes back", d(undefined, "connect ECONNREFUSED 127.0.0.1:9", "4.4.1"), null, { kind: "pushback", reply: "connect ECONNREFUSED 127.0.0.1:9" }],
    ["a DNS failure says nothing of the receiver", d(undefined, "MX lookup for x failed", "4.4.3"), null, null],
    ["a local hold says nothing", d(undefined, "sending domain a.test is disabled", "4.7.1"), null, null],
    ["Yahoo TSS04 suspends yahoo for 2 h", d(421, "421 4.7.0 [TSS04] Messages from 1.2.3.4 temporarily deferred due to unexpected volume or user complaints"), "yahoo",
      { kind: "suspend", reply: "421 4.7.0 [TSS04] Messages from 1.2.3.4 temporarily deferred due to unexpected volume or user complaints", untilMs: T + 2 * H }],
    ["Microsoft's server busy throttles outlook", d(451, "451 4.7.500 Server busy. Please try again later from [1.2.3.4]. (S77719)"), "outlook",
      { kind: "throttle", reply: "451 4.7.500 Server busy. Please try again later from [1.2.3.4]. (S77719)", untilMs: T + 1.5 * H }],
    ["Gmail 4.7.28 throttles gmail", d(421, "421 4.7.28 Gmail has detected an unusual rate of unsolicited mail"), "gmail",
      { kind: "throttle", reply: "421 4.7.28 Gmail has detected an unusual rate of unsolicited mail", untilMs: T + H / 2 }],
    ["TSS04 from another provider is a plain pushback", d(421, "421 [TSS04] x"), "gmail", { kind: "pushback", reply: "421 [TSS04] x" }],
  ];
  for (const [what, facts, provider, want] of table) test(what, () => expect(feedbackOf(facts, provider, BUILT_IN_AUTOMATION, T)).toEqual(want as never));

  test("a configured rule wins over a built-in one matching the same reply", () => {
    const mine: AutomationRule = { provider: "yahoo", match: /TSS04/, action: "throttle", durationMs: 60_000, builtIn: false };
    expect(automationFor([...BUILT_IN_AUTOMATION, mine], "yahoo", "421 4.7.0 [TSS04] x")).toBe(mine);
    const star: AutomationRule = { provider: "*", match: /slow down/, action: "suspend", durationMs: 1, builtIn: false };
    expect(automationFor([star], "any", "421 please slow down")).toBe(star);
    expect(automationFor([star], null, "250 ok")).toBeNull();
  });
});
