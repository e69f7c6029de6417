import { describe, expect, test } from "bun:test";
import { relaxedBody, relaxedHeader, fieldsToSign, splitMessage } from "../../../src/mta/message/dkim-canon.ts";

// RFC 6376 §3.4.4 written out line by line, as the reference.
function reference(body: string): string {
  const lines = body.split(/\r?\n/).map((l) => l.replace(/[ \t]+/g, " ").replace(/ $/, ""));
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.length ? `${lines.join("\r\n")}\r\n` : "";
}

describe("relaxed canonicalization", () => {
  test("the body matches RFC 6376 §3.4.4 on random bodies (fast path and general path)", () => {
    const alphabet = ["a", "b", " ", "\t", "\r\n", "\n", "  ", "x y"];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++) {
      const body = Array.from({ length: Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
      expect(relaxedBody(body)).toBe(reference(body));
    }
  });

  test("RFC 6376 §3.4.5 example", () => {
    expect(relaxedHeader("A: X")).toBe("a:X\r\n");
    expect(relaxedHeader("B : Y\t\r\n\tZ  ")).toBe("b:Y Z\r\n");
    expect(relaxedBody(" C \r\nD \t E\r\n\r\n\r\n")).toBe(" C\r\nD E\r\n");
  });

  test("only blanks and tabs are trimmed: a value ending in a UTF-8 byte 0xa0 (à in a latin1 string) keeps it", () => {
    const subject = `Subject: voil${Buffer.from("à", "utf8").toString("latin1")}`;
    expect(relaxedHeader(subject)).toBe(`subject:voil\xc3\xa0\r\n`);
    expect(relaxedHeader("X-A:\t a  b \t")).toBe("x-a:a b\r\n");
    expect(relaxedHeader("X-B : one\r\n\ttwo")).toBe("x-b:one two\r\n");
  });

  test("fields are signed from the bottom up; an over-signed name matches nothing the last time", () => {
    const { fields } = splitMessage("Subject: one\r\nSubject: two\r\nFrom: a@x.test\r\n\r\nbody");
    const { names, canonical } = fieldsToSign(fields);
    expect(names.filter((n) => n === "subject")).toHaveLength(3);
    expect(canonical).toBe("from:a@x.test\r\nsubject:two\r\nsubject:one\r\n");
  });
});
