// The limits a received header block must keep to be authenticated (mailauth's costs grow with the
// square of its lines, and with its DKIM signatures times the body).
import { expect, test } from "bun:test";
import { createHeadCensus, MAX_HEAD_LINES, MAX_SIGNATURES } from "../../../src/inbound/receive/head-census.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
/** The census's answer for `text` fed `size` bytes at a time. */
function census(text: string, size = text.length): string | null {
  const c = createHeadCensus();
  const all = bytes(text);
  for (let at = 0; at < all.length; at += size) {
    const why = c.push(all.subarray(at, at + size));
    if (why) return why;
  }
  return null;
}
const signature = (i: number) => `DKIM-Signature: v=1; d=x.example; s=s${i}; h=from; bh=a; b=b\r\n`;

test("up to 2,000 header lines and 10 DKIM signatures; the body is not counted", () => {
  expect(census("a: b\r\n".repeat(MAX_HEAD_LINES) + "\r\n" + "body\r\n".repeat(5000))).toBeNull();
  expect(census("a: b\r\n".repeat(MAX_HEAD_LINES + 1))).toBe("a header block of more than 2000 lines");
  expect(census("Subject: x\n" + " y\n".repeat(MAX_HEAD_LINES))).toBe("a header block of more than 2000 lines");
  expect(census("\r\n" + "a: b\r\n".repeat(5000))).toBeNull(); // an empty first line: no header block
  const signatures = Array.from({ length: MAX_SIGNATURES + 1 }, (_, i) => signature(i));
  expect(census(signatures.slice(1).join("") + "\r\n" + signatures[0])).toBeNull();
  expect(census(signatures.join(""))).toBe("more than 10 DKIM signatures");
  expect(census(`${signatures.slice(1).join("")}dkim-signature \t: v=1\r\n`)).toBe("more than 10 DKIM signatures");
  expect(census(`${signatures.slice(1).join("")}X-DKIM-Signature: v=1\r\n DKIM-Signature: v=1\r\n`)).toBeNull();
});

test("the same answer however the header block is cut into pieces", () => {
  const texts = [
    "a: b\r\n".repeat(MAX_HEAD_LINES) + "\r\nbody",
    "a: b\r\n".repeat(MAX_HEAD_LINES) + "c: d\r\n",
    "a: b\n".repeat(MAX_HEAD_LINES - 1) + "\n" + "e: f\n".repeat(10),
    "a: b\r\n\r" + "\r\n".repeat(3000),
    Array.from({ length: MAX_SIGNATURES + 1 }, (_, i) => signature(i)).join(""),
    `${"x".repeat(200)}: v\r\n`.repeat(10) + signature(0).repeat(MAX_SIGNATURES) + "\r\n",
  ];
  for (const text of texts) for (const size of [1, 2, 3, 7, 64, 65, 1000]) expect(census(text, size)).toBe(census(text));
});
