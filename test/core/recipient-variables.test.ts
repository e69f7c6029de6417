import { describe, expect, test } from "bun:test";
import { parseRecipientVariables, substitute, variablesOf } from "../../src/core/recipient-variables.ts";

describe("recipient-variables substitution", () => {
  const ann1 = JSON.stringify({ name: "Ann", n: 3, deep: { a: { b: "B" } }, "dot.key": "D", obj: { k: 1 } });
  const vars = parseRecipientVariables(`{"Ann@X.test": ${ann1}, "__proto__": {"name": "evil"}}`);
  const ann = { email: "ann@x.test" };
  const table: [string, string][] = [
    ["Hi %recipient.name%", "Hi Ann"],
    ["%recipient%", "ann@x.test"],
    ["n=%recipient.n%", "n=3"],
    ["%recipient.deep.a.b%", "B"],
    ["%recipient.dot.key%", "D"],
    ["%recipient.obj%", '{"k":1}'],
    ["[%recipient.missing%]", "[]"],
    ["[%recipient.constructor%][%recipient.__proto__%]", "[][]"],
    ["100% sure, %recipient_x% untouched", "100% sure, %recipient_x% untouched"],
  ];
  for (const [input, out] of table) test(`${input} → ${out}`, () => expect(substitute(input, ann, variablesOf(vars, ann))).toBe(out));

  test("addresses match case-insensitively; an unlisted recipient has no variables (not even __proto__'s)", () => {
    expect(variablesOf(vars, { email: "ANN@x.test" })).toMatchObject({ name: "Ann" });
    expect(variablesOf(vars, { email: "other@x.test" })).toEqual({});
  });

  test("invalid JSON and non-objects are 400s", () => {
    expect(() => parseRecipientVariables("{nope")).toThrow("'recipient-variables' parameter is not a valid JSON");
    expect(() => parseRecipientVariables("[1]")).toThrow("must be a JSON object");
  });
});

describe("nested values and safety (the native surface's cases)", () => {
  const rcpt = { email: "ann@example.org" };
  const vars = { first: "Ann", n: 3, ok: true, deep: { code: "X1", list: [1, 2] }, empty: null };
  const table: [string, string][] = [
    ["Hi %recipient.first%!", "Hi Ann!"],
    ["%recipient.n% / %recipient.ok%", "3 / true"],
    ["code %recipient.deep.code%", "code X1"],
    ["list %recipient.deep.list%", "list [1,2]"],
    ["missing [%recipient.nope%] [%recipient.deep.nope%] [%recipient.empty%]", "missing [] [] []"],
    ["no prototype: [%recipient.constructor%] [%recipient.first.length%]", "no prototype: [] []"],
    ["the address itself: %recipient%", "the address itself: ann@example.org"],
  ];
  for (const [input, want] of table) test(`${input} → ${want}`, () => expect(substitute(input, rcpt, vars)).toBe(want));
});
