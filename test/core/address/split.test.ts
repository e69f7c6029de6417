import { describe, expect, test } from "bun:test";
import { splitAddressList } from "../../../src/core/address/split.ts";

const texts = (input: string) => splitAddressList(input).map((c) => c.text);

describe("splitAddressList", () => {
  test("cuts at commas and semicolons outside quotes, comments and brackets", () => {
    expect(texts('"a,b" <x@y.com>; c (d,e) <f@g.com>, h@[IPv6:1::2]')).toEqual([
      '"a,b" <x@y.com>',
      "c (d,e) <f@g.com>",
      "h@[IPv6:1::2]",
    ]);
  });

  test("ignores a separator after a backslash inside a quoted string", () => {
    expect(texts('"a\\",b" <x@y.com>, z@y.com')).toEqual(['"a\\",b" <x@y.com>', "z@y.com"]);
  });

  test("keeps the route colon of an obsolete angle address out of group detection", () => {
    expect(splitAddressList("<@relay.example:a@b.com>")).toEqual([{ text: "<@relay.example:a@b.com>" }]);
  });

  test("labels the members of a group with its name and ends the group at the semicolon", () => {
    expect(splitAddressList("Team: a@x.com, b@x.com; c@x.com")).toEqual([
      { text: "a@x.com", group: "Team" },
      { text: "b@x.com", group: "Team" },
      { text: "c@x.com" },
    ]);
  });

  test("joins an unquoted 'Last, First' name with its angle address", () => {
    expect(texts("Doe, John <j@x.com>, k@x.com")).toEqual(["Doe, John <j@x.com>", "k@x.com"]);
  });

  test("does not join a bare address with a following named one", () => {
    expect(texts("a@x.com, Bob <b@x.com>")).toEqual(["a@x.com", "Bob <b@x.com>"]);
  });

  test("recovers the entries after an unclosed comment", () => {
    expect(texts("a@x.com, (oops b@x.com, c@x.com")).toEqual(["a@x.com", "(oops b@x.com", "c@x.com"]);
  });
});
