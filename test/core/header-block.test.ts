// A received message's header block (src/core/header-block.ts): its fields as the bytes they came as, and as text.
import { expect, test } from "bun:test";
import { headerBlock, rawFields } from "../../src/core/header-block.ts";

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "utf8")] : p)));

test("fields in order, unfolded as text, folding kept in the raw field, stray lines skipped, the body never read", () => {
  const raw = bytes("Subject: one\n two\r\nnot a field\r\nX-A:  a  \r\n\r\nBody: no\r\n");
  expect(headerBlock(raw)).toEqual([["Subject", "one two"], ["X-A", "a"]]);
  expect(rawFields(raw).map((f) => f.raw)).toEqual(["Subject: one\r\n two", "X-A:  a  "]);
});

test("raw UTF-8 reads as UTF-8 (RFC 6532); other 8-bit fields as windows-1252, each field on its own", () => {
  const raw = bytes("Subject: 5 € — ok\r\nFrom: Ren", [0xe9, 0x80], " <r@x.example>\r\n\r\n");
  expect(headerBlock(raw)).toEqual([["Subject", "5 € — ok"], ["From", "René€ <r@x.example>"]]);
  // The raw field gives the bytes back.
  expect([...Buffer.from(rawFields(raw)[0]!.raw, "latin1")]).toEqual([...Buffer.from("Subject: 5 € — ok", "utf8")]);
});
