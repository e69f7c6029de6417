// The copy a Mailgun forward("addr@…") sends on: From names the original sender "via" the
// receiving domain, however the original From is written.
import { expect, test } from "bun:test";
import { forwardCopy } from "../../../src/inbound/receive/forward-copy.ts";

const copy = (from: string) => {
  const raw = new TextEncoder().encode(`From: ${from}\r\nSubject: s\r\n\r\nbody\r\n`);
  return Buffer.from(forwardCopy(raw, "desk@in.example", "in.example")).toString("latin1");
};
const fromLine = (from: string) => copy(from).split("\r\n")[0];

test("From is the receiving address, named after the original sender's name or else address", () => {
  expect(fromLine(`"Zoe Sender" <zoe@sender.example>`)).toBe(`From: "Zoe Sender via in.example" <desk@in.example>`);
  expect(fromLine("Zoe <zoe@sender.example>")).toBe(`From: "Zoe via in.example" <desk@in.example>`);
  expect(fromLine("<zoe@sender.example>")).toBe(`From: "zoe@sender.example via in.example" <desk@in.example>`);
  expect(fromLine("zoe@sender.example (Zoe)")).toBe(`From: "zoe@sender.example via in.example" <desk@in.example>`);
  expect(fromLine(`"Zoe" Sender <zoe@sender.example>`)).toBe(`From: "zoe@sender.example via in.example" <desk@in.example>`);
  expect(fromLine("nobody")).toBe(`From: "unknown sender via in.example" <desk@in.example>`);
  expect(copy("Zoe <zoe@sender.example>")).toContain("\r\nReply-To: Zoe <zoe@sender.example>\r\n");
});

// Both readings were regexes that rescanned the rest of the value from each position: 80,000
// characters took 2-5 s, a whole 250 KB From about a minute.
test("a From of 250,000 characters is read in one pass", () => {
  expect(fromLine("a".repeat(250_000))).toBe(`From: "unknown sender via in.example" <desk@in.example>`);
  expect(fromLine(`Zoe${" ".repeat(250_000)}<zoe@sender.example>`)).toBe(`From: "Zoe via in.example" <desk@in.example>`);
  expect(fromLine(`"${"a".repeat(250_000)}`)).toBe(`From: "unknown sender via in.example" <desk@in.example>`);
});
