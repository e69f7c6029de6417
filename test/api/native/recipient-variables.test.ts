import { describe, expect, test } from "bun:test";
import { substitute, substituteHeaders, toRecipientVariables } from "../../../src/api/native/recipient-variables.ts";

describe("%recipient.<name>% substitution", () => {
  const vars = { first: "Ann", n: 3, ok: true, deep: { code: "X1", list: [1, 2] }, empty: null };
  const table: [string, string][] = [
    ["Hi %recipient.first%!", "Hi Ann!"],
    ["%recipient.n% / %recipient.ok%", "3 / true"],
    ["code %recipient.deep.code%", "code X1"],
    ["list %recipient.deep.list%", "list [1,2]"],
    ["object %recipient.deep%", "object {\"code\":\"X1\",\"list\":[1,2]}"],
    ["missing [%recipient.nope%] [%recipient.deep.nope%] [%recipient.empty%]", "missing [] [] []"],
    ["not a placeholder: %recipient% %recipient.% 100%", "not a placeholder: %recipient% %recipient.% 100%"],
    ["no prototype: [%recipient.constructor%] [%recipient.first.length%]", "no prototype: [] []"],
  ];
  for (const [input, want] of table) test(`${input} → ${want}`, () => expect(substitute(input, vars)).toBe(want));

  test("leaves undefined bodies undefined and substitutes header values", () => {
    expect(substitute(undefined, vars)).toBeUndefined();
    expect(substituteHeaders({ "X-User": "%recipient.first%" }, vars)).toEqual({ "X-User": "Ann" });
  });

  test("keys addresses case-insensitively and refuses non-object values", () => {
    expect(toRecipientVariables({ "Ann@Example.org": { a: 1 } }).get("ann@example.org")).toEqual({ a: 1 });
    expect(() => toRecipientVariables({ "a@b.test": "x" })).toThrow("must be a JSON object");
  });
});
