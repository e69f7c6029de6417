import { describe, expect, test } from "bun:test";
import { fittedTable, shorten } from "../../cli/output.ts";

describe("80-column tables", () => {
  test("shorten keeps both ends and the length asked for", () => {
    expect(shorten("short", 10)).toBe("short");
    const s = shorten("abcdefghijklmnopqrstuvwxyz", 10);
    expect(s.length).toBe(10);
    expect(s.startsWith("abcde")).toBe(true);
    expect(s.endsWith("xyz")).toBe(true);
    expect(s).toContain("…");
  });
  test("fittedTable shortens the flexible columns until every line fits, and leaves short tables alone", () => {
    const rows = [{ type: "TXT", name: "s1._domainkey.a-rather-long-domain-name.example.com", value: "v=DKIM1; k=rsa; p=" + "A".repeat(400) }];
    const out = fittedTable(rows, ["type", "name", "value"], ["value", "name"]);
    expect(Math.max(...out.split("\n").map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(out).toContain("v=DKIM1");
    const small = fittedTable([{ a: "x", b: "y" }], ["a", "b"], ["b"]);
    expect(small).toBe("A  B\nx  y");
  });
});
