// The address of a custom Sender header (checked against the sending domain in send.ts).
import { expect, test } from "bun:test";
import { senderAddress } from "../../src/core/headers.ts";

test("a Sender value's address: the <…> that ends it, or the value alone", () => {
  expect(senderAddress("Ops <ops@example.com>")).toBe("ops@example.com");
  expect(senderAddress("  ops@example.com  ")).toBe("ops@example.com");
  expect(senderAddress(`<"odd"@example.com> `)).toBe(`"odd"@example.com`);
  expect(senderAddress("a@b@c")).toBe("a@b@c");
  expect(senderAddress(`"odd"@example.com`)).toBeNull(); // a bare address with a quoted local part
  expect(senderAddress("Ops <ops@example.com> and more")).toBeNull();
  expect(senderAddress("@example.com")).toBeNull();
  expect(senderAddress("ops@")).toBeNull();
  expect(senderAddress("two words@example.com")).toBeNull();
  expect(senderAddress("")).toBeNull();
});

// The one regex tried each @ of a long word as the split and rescanned the rest of it: 40,000
// characters took 1.2 s (an API key's Sender header, within a 50 MB body).
test("a 100,000-character word of @s is read in one pass", () => {
  const word = "a@".repeat(50_000);
  expect(senderAddress(`${word}a x`)).toBeNull();
  expect(senderAddress(`<${word}a x`)).toBeNull();
  expect(senderAddress(`${word}a`)).toBe(`${word}a`);
});
