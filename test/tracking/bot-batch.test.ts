// A bot-API batch seen as a window: a burst verdict makes bots of the same client's fetches of the
// message just before it; a gateway's check beside a person's click is the gateway's; a bot verdict on
// one cloud address's fetch reaches that address's earlier fetches of the message; a cloud fetch with a
// vendor's bot browser build, seconds from it on another link of the message, is the vendor's; a cloud address's
// fetch after two of its bot fetches of the message within a minute is its sandbox's; two addresses of one cloud
// on two links of a message within seconds, early or undated, are one sandbox; nothing else.
import { describe, expect, test } from "bun:test";
import {
  burstGroups, withBurstsLookedAhead, withChecksLookedAhead, withCloudSpreadLookedAhead, withCompanionsLookedAhead, withLookAhead, withSandboxesFollowedUp,
  withSandboxesLookedAhead,
  type JudgedEvent,
} from "../../src/tracking/bot-batch.ts";

const person = { isBot: false, verdict: "human", reasons: [] } as unknown as JudgedEvent["verdict"];
const burst = { isBot: true, verdict: "bot", reasons: ["pattern:links-in-one-second"] } as unknown as JudgedEvent["verdict"];
const byNetwork = { isBot: true, verdict: "bot", reasons: ["network:microsoft-eop"] } as unknown as JudgedEvent["verdict"];
const ev = (at: number | undefined, group: string | undefined, verdict: JudgedEvent["verdict"]): JudgedEvent => ({ at, groups: group === undefined ? [] : [group], verdict });

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

  test("a fetch belongs to each of its clients' groups: a vendor's burst reaches its fetches made with another UA", () => {
    const vendorFetch = (at: number, ua: string, verdict: JudgedEvent["verdict"]): JudgedEvent => ({ at, groups: [ua, "net:proofpoint"], verdict });
    expect(withBurstsLookedAhead([vendorFetch(0, "chrome", person), vendorFetch(1_000, "ie", person), ev(1_500, "firefox", person), vendorFetch(2_000, "", burst)]))
      .toEqual([true, true, false, true]);
  });

  test("the groups are one client's fetches of one message of one recipient, one per client; opens and unnamed messages have none", () => {
    expect(burstGroups({ message_id: "m", recipient_id: "r" }, ["ua"])).toEqual(burstGroups({ action: "click", message_id: "m", recipient_id: "r" }, ["ua"]));
    expect(burstGroups({ message_id: "m", recipient_id: "r" }, ["other"])).not.toEqual(burstGroups({ message_id: "m", recipient_id: "r" }, ["ua"]));
    expect(burstGroups({ message_id: "m", recipient_id: "r" }, ["ua", "net:mimecast"])).toHaveLength(2);
    expect(burstGroups({ action: "open", message_id: "m" }, ["ua"])).toEqual([]);
    expect(burstGroups({}, ["ua"])).toEqual([]);
  });
});

describe("withChecksLookedAhead (a gateway's time-of-click check beside the person it lets through)", () => {
  const click = (at: number | undefined, o: Partial<JudgedEvent> = {}): JudgedEvent => ({ at, groups: ["g"], message: "m\u0000r", verdict: person, ...o });
  test("a fetch from a vendor's or cloud network is a bot when a person's click of the same message from elsewhere follows within 5 s", () => {
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast" }), click(3_000)])).toEqual([true, false]);
    expect(withChecksLookedAhead([click(0, { cloud: "aws" }), click(2_000)])).toEqual([true, false]);
    // A person on a cloud desktop let through a vendor's check, or re-checked by the vendor just after.
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast" }), click(2_000, { cloud: "azure" })])).toEqual([true, false]);
    expect(withChecksLookedAhead([click(0, { cloud: "azure" }), click(1_000, { vendor: "proofpoint" })])).toEqual([false, true]);
    // A vendor's or cloud fetch up to 15 s after the person's click is its check (resend-node#901: 12 s after);
    // a cloud click sooner than 3 s after may be the person's own.
    expect(withChecksLookedAhead([click(0), click(4_000, { vendor: "mimecast" })])).toEqual([false, true]);
    expect(withChecksLookedAhead([click(0), click(12_000, { vendor: "mimecast" })])).toEqual([false, true]);
    expect(withChecksLookedAhead([click(0), click(12_000, { cloud: "azure" })])).toEqual([false, true]);
    expect(withChecksLookedAhead([click(0), click(1_000, { cloud: "aws" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0), click(3_000, { cloud: "aws" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast" }), click(0)])).toEqual([true, false]);
  });

  test("not when the click comes more than 5 s before (15 s after), is another message's, another link's, from that space too, or a bot itself", () => {
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast" }), click(5_001)])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0), click(15_001, { vendor: "mimecast" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0), click(15_001, { cloud: "azure" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { link: "a" }), click(12_000, { cloud: "azure", link: "b" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { cloud: "aws" }), click(12_000, { cloud: "azure" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast" }), click(1_000, { message: "other" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast", link: "a" }), click(1_000, { link: "b" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(1_000, { cloud: "aws" }), click(0)])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { vendor: "mimecast" }), click(1_000, { vendor: "mimecast" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { cloud: "aws" }), click(1_000, { cloud: "aws" })])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(undefined, { vendor: "mimecast" }), click(1_000)])).toEqual([false, false]);
    expect(withChecksLookedAhead([click(0, { cloud: "aws" }), click(1_000, { verdict: byNetwork })])).toEqual([false, true]);
  });

  test("the same link named on both sides, or on neither, pairs them; both look-aheads apply together", () => {
    expect(withChecksLookedAhead([click(0, { vendor: "proofpoint", link: "a" }), click(2_000, { link: "a" })])).toEqual([true, false]);
    expect(withLookAhead([click(0, { vendor: "proofpoint", groups: ["v"] }), click(1_000), ev(4_000, "v", person), ev(6_000, "v", burst)]))
      .toEqual([true, false, true, true]);
  });
});

describe("withSandboxesLookedAhead (one cloud address, or one vendor's network, fetching one recipient's message is one sandbox)", () => {
  const click = (at: number | undefined, o: Partial<JudgedEvent> = {}): JudgedEvent =>
    ({ at, groups: ["g"], message: "m\u0000r", cloud: "azure", address: "20.124.68.236", verdict: person, ...o });
  test("a bot verdict on the address's fetch makes bots of its fetches of the message up to 60 s before, whatever the verdict's reason", () => {
    expect(withSandboxesLookedAhead([click(0), click(500, { verdict: byNetwork }), click(3_000)])).toEqual([true, true, false]);
    expect(withSandboxesLookedAhead([click(4_000, { verdict: burst }), click(-55_000), click(-57_000)])).toEqual([true, true, false]);
  });

  test("a vendor's network is one sandbox: its bot verdict reaches the vendor's earlier fetches of the message, not another vendor's or a cloud address's", () => {
    const vendor = (at: number, name: string, o: Partial<JudgedEvent> = {}) => click(at, { cloud: undefined, address: undefined, vendor: name, ...o });
    expect(withSandboxesLookedAhead([vendor(0, "proofpoint"), vendor(30_000, "proofpoint", { verdict: byNetwork })])).toEqual([true, true]);
    expect(withSandboxesLookedAhead([vendor(0, "mimecast"), vendor(30_000, "proofpoint", { verdict: byNetwork })])).toEqual([false, true]);
    expect(withSandboxesLookedAhead([click(0), vendor(30_000, "proofpoint", { verdict: byNetwork })])).toEqual([false, true]);
    expect(withSandboxesLookedAhead([vendor(0, "proofpoint"), vendor(61_000, "proofpoint", { verdict: byNetwork })])).toEqual([false, true]);
  });

  test("revisions do not chain: only the classifier's own bot verdicts reach back", () => {
    expect(withSandboxesLookedAhead([click(0), click(50_000), click(100_000, { verdict: byNetwork })])).toEqual([false, true, true]);
  });

  test("not another address, another message, an address outside cloud space, an untimed fetch, or one after the verdict", () => {
    expect(withSandboxesLookedAhead([click(0, { address: "20.124.68.237" }), click(1_000, { verdict: byNetwork })])).toEqual([false, true]);
    expect(withSandboxesLookedAhead([click(0, { message: "other" }), click(1_000, { verdict: byNetwork })])).toEqual([false, true]);
    const outside = { cloud: undefined, address: undefined };
    expect(withSandboxesLookedAhead([click(0, outside), click(1_000, { ...outside, verdict: byNetwork })])).toEqual([false, true]);
    expect(withSandboxesLookedAhead([click(undefined), click(1_000, { verdict: byNetwork })])).toEqual([false, true]);
    expect(withSandboxesLookedAhead([click(1_000, { verdict: byNetwork }), click(2_000)])).toEqual([true, false]);
  });

  test("withLookAhead applies it with the other two", () => {
    expect(withLookAhead([click(0, { groups: ["a"] }), click(200, { groups: ["b"], verdict: byNetwork })])).toEqual([true, true]);
  });
});

describe("withCompanionsLookedAhead (one sandbox spreading a message's links over its vendor's network and the cloud)", () => {
  // groups[0] is the message, recipient and UA (burstGroups): the same string means the same browser build.
  const click = (at: number | undefined, o: Partial<JudgedEvent> = {}): JudgedEvent =>
    ({ at, groups: ["m\u0000r\u0000chrome-130"], message: "m\u0000r", cloud: "azure", address: "20.119.19.195", verdict: person, ...o });
  const eop = (at: number, o: Partial<JudgedEvent> = {}) => click(at, { cloud: undefined, address: undefined, vendor: "microsoft-eop", verdict: byNetwork, ...o });
  test("a cloud fetch within 5 s of the vendor's bot fetch of another link, with the same UA, is the vendor's: before it or after", () => {
    expect(withCompanionsLookedAhead([eop(0), click(1_000), eop(2_000)])).toEqual([true, true, true]);
    expect(withCompanionsLookedAhead([click(0), eop(5_000)])).toEqual([true, true]);
    expect(withCompanionsLookedAhead([eop(0, { link: "a" }), click(0, { link: "b" })])).toEqual([true, true]);
  });

  test("not the same link (a person let through a check), another UA or message, further than 5 s, outside cloud space, or beside a person", () => {
    expect(withCompanionsLookedAhead([eop(0), click(0)])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0, { link: "a" }), click(2_000, { link: "a" })])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0), click(1_000, { groups: ["m\u0000r\u0000chrome-131"] })])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0), click(1_000, { groups: ["n\u0000r\u0000chrome-130"], message: "n\u0000r" })])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0), click(5_001)])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0), click(1_000, { cloud: undefined, address: undefined })])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0, { verdict: person }), click(1_000)])).toEqual([false, false]);
    expect(withCompanionsLookedAhead([click(0, { address: "20.119.19.196", verdict: byNetwork }), click(1_000)])).toEqual([true, false]);
    expect(withCompanionsLookedAhead([eop(0), click(undefined)])).toEqual([true, false]);
  });

  test("revisions do not chain, and withLookAhead applies it after the others", () => {
    expect(withCompanionsLookedAhead([eop(0), click(4_000), click(8_000, { address: "13.69.155.90" })])).toEqual([true, true, false]);
    expect(withLookAhead([eop(0), click(1_000)])).toEqual([true, true]);
  });
});

describe("withSandboxesFollowedUp (a cloud sandbox working on through a message's links after it gave itself away)", () => {
  const click = (at: number | undefined, o: Partial<JudgedEvent> = {}): JudgedEvent =>
    ({ at, groups: ["g"], message: "m\u0000r", cloud: "azure", address: "20.42.9.247", verdict: person, ...o });
  test("a fetch after two of the address's bot fetches of the message within 60 s is a bot, whatever UA it sends", () => {
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(2_000, { verdict: burst }), click(9_000, { groups: ["h"] }), click(59_000)]))
      .toEqual([true, true, true, true]);
  });

  test("not after one, after two more than 60 s back, from another address or message, outside cloud space, or untimed", () => {
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(9_000)])).toEqual([true, false]);
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(1_000, { verdict: burst }), click(61_000)])).toEqual([true, true, false]);
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(1_000, { verdict: burst }), click(9_000, { address: "20.42.9.248" })])).toEqual([true, true, false]);
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(1_000, { verdict: burst }), click(9_000, { message: "n\u0000r" })])).toEqual([true, true, false]);
    const outside = { cloud: undefined, address: undefined };
    expect(withSandboxesFollowedUp([click(0, { ...outside, verdict: burst }), click(1_000, { ...outside, verdict: burst }), click(9_000, outside)]))
      .toEqual([true, true, false]);
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(1_000, { verdict: burst }), click(undefined)])).toEqual([true, true, false]);
  });

  test("revisions within it do not chain, and withLookAhead applies it last", () => {
    expect(withSandboxesFollowedUp([click(0, { verdict: burst }), click(1_000), click(2_000, { verdict: burst }), click(3_000)])).toEqual([true, false, true, true]);
    expect(withLookAhead([click(0, { verdict: byNetwork }), click(1_000, { verdict: byNetwork }), click(30_000, { groups: ["h"] })])).toEqual([true, true, true]);
  });
});

describe("withCloudSpreadLookedAhead (one sandbox spreading a message's links over its cloud's addresses)", () => {
  const click = (at: number | undefined, address: string, o: Partial<JudgedEvent> = {}): JudgedEvent =>
    ({ at, groups: [address], message: "m\u0000r", cloud: "azure", address, sinceDelivery: 20, verdict: person, ...o });
  test("two addresses of one cloud on two links within 5 s, in the first 5 minutes or undated, are both bots", () => {
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(5_000, "52.146.45.252")])).toEqual([true, true]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57", { sinceDelivery: undefined }), click(2_000, "52.146.45.252", { sinceDelivery: undefined })]))
      .toEqual([true, true]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57", { link: "a" }), click(0, "52.146.45.252", { link: "b" })])).toEqual([true, true]);
  });

  test("not one address (a person's desktop), the same link, another cloud or message, further than 5 s, or after 5 minutes", () => {
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(2_000, "20.85.127.57")])).toEqual([false, false]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(0, "52.146.45.252")])).toEqual([false, false]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(2_000, "3.91.63.248", { cloud: "aws" })])).toEqual([false, false]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(2_000, "52.146.45.252", { message: "n\u0000r" })])).toEqual([false, false]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(5_001, "52.146.45.252")])).toEqual([false, false]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57", { sinceDelivery: 300 }), click(2_000, "52.146.45.252", { sinceDelivery: 302 })])).toEqual([false, false]);
    expect(withCloudSpreadLookedAhead([click(0, "20.85.127.57"), click(2_000, "198.51.100.7", { cloud: undefined })])).toEqual([false, false]);
  });

  test("withLookAhead applies it", () => {
    expect(withLookAhead([click(0, "20.85.127.57"), click(1_000, "52.146.45.252")])).toEqual([true, true]);
  });
});
