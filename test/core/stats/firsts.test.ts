// Which first an open or click is, from the opens and clicks recorded before it.
import { expect, test } from "bun:test";
import { firstsOf } from "../../../src/core/stats/firsts.ts";

const open = { type: "opened" as const };
const botOpen = { type: "opened" as const, isBot: true };
const click = { type: "clicked" as const };

test("the first open is every first; later ones are none; bots and clicks count apart", () => {
  expect(firstsOf(open, [])).toEqual(["once", "human", "engaged", "human-engaged"]);
  expect(firstsOf(open, [open])).toEqual([]);
  expect(firstsOf(botOpen, [])).toEqual(["once", "engaged"]);
  // A human open after a bot's: not the first open, but the first by a human.
  expect(firstsOf(open, [botOpen])).toEqual(["human", "human-engaged"]);
  // A click after an open: the first click, not the first engagement.
  expect(firstsOf(click, [open])).toEqual(["once", "human"]);
  expect(firstsOf(click, [botOpen, { type: "clicked", isBot: true }])).toEqual(["human", "human-engaged"]);
  // Other events (deliveries…) do not count.
  expect(firstsOf(open, [{ type: "delivered" }])).toEqual(["once", "human", "engaged", "human-engaged"]);
});
