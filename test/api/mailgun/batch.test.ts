import { describe, expect, test } from "bun:test";
import { parseRecipientVariables, substitute, variablesOf } from "../../../src/api/mailgun/batch.ts";

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
