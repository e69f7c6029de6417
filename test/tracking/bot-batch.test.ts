// A bot-API batch seen as a window: a burst verdict makes bots of the same client's fetches of the
// message just before it, and of nothing else.
import { describe, expect, test } from "bun:test";
import { burstGroup, withBurstsLookedAhead, type JudgedEvent } from "../../src/tracking/bot-batch.ts";

const person = { isBot: false, verdict: "human", reasons: [] } as unknown as JudgedEvent["verdict"];
const burst = { isBot: true, verdict: "bot", reasons: ["pattern:links-in-one-second"] } as unknown as JudgedEvent["verdict"];
const byNetwork = { isBot: true, verdict: "bot", reasons: ["network:microsoft-eop"] } as unknown as JudgedEvent["verdict"];
const ev = (at: number | undefined, group: string | undefined, verdict: JudgedEvent["verdict"]): JudgedEvent => ({ at, group, verdict });

describe("withBurstsLookedAhead", () => {
  test("a burst's earlier fetches of the same group within 5 s become bots; other groups, later ones and older ones do not", () => {
    expect(withBurstsLookedAhead([
      ev(0, "g", person), ev(4_000, "g", person), ev(5_000, "g", burst), ev(6_000, "g", person),
      ev(4_500, "h", person), ev(4_900, undefined, person), ev(undefined, "g", person),
    ])).toEqual([true, true, true, false, false, false, false]);
  });

  test("only a pattern verdict reaches back: a network verdict does not", () => {
    expect(withBurstsLookedAhead([ev(1_000, "g", person), ev(2_000, "g", byNetwork)])).toEqual([false, true]);
  });

  test("events are taken in time order whatever the batch's order, and chains do not extend the reach", () => {
    expect(withBurstsLookedAhead([ev(12_000, "g", burst), ev(8_000, "g", person), ev(3_000, "g", person)])).toEqual([true, true, false]);
  });

  test("the group is one client's fetches of one message of one recipient; opens and unnamed messages have none", () => {
    expect(burstGroup({ message_id: "m", recipient_id: "r", uas: "ua" })).toBe(burstGroup({ action: "click", message_id: "m", recipient_id: "r", uas: "ua" }));
    expect(burstGroup({ message_id: "m", recipient_id: "r", uas: "other" })).not.toBe(burstGroup({ message_id: "m", recipient_id: "r", uas: "ua" }));
    expect(burstGroup({ action: "open", message_id: "m" })).toBeUndefined();
    expect(burstGroup({ uas: "ua" })).toBeUndefined();
  });
});
