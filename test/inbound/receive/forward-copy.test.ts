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

test("raw UTF-8 (RFC 6532) goes on byte for byte, and the sender's name is read as UTF-8", () => {
  const raw = Buffer.from("From: Zoë Ŋ € <zoe@sender.example>\r\nSubject: Prix 5 € — ok\r\n  suite\r\nTo: desk@in.example\r\n\r\nbody é €\r\n", "utf8");
  const out = Buffer.from(forwardCopy(raw, "desk@in.example", "in.example")).toString("utf8");
  expect(out).toContain(`From: =?UTF-8?B?${Buffer.from("Zoë Ŋ € via in.example").toString("base64")}?= <desk@in.example>\r\n`);
  expect(out).toContain("\r\nReply-To: Zoë Ŋ € <zoe@sender.example>\r\n");
  expect(out).toContain("\r\nSubject: Prix 5 € — ok\r\n  suite\r\nTo: desk@in.example\r\n\r\nbody é €\r\n");
});

test("an 8-bit name that is not UTF-8 is read as windows-1252, and its field goes on as it came", () => {
  const raw = new Uint8Array([...Buffer.from("From: Ren"), 0xe9, 0x80, ...Buffer.from(" <r@sender.example>\r\nSubject: s\r\n\r\nb\r\n")]);
  const out = Buffer.from(forwardCopy(raw, "desk@in.example", "in.example"));
  expect(out.toString("latin1").split("\r\n")[0]).toBe(`From: =?UTF-8?B?${Buffer.from("René€ via in.example").toString("base64")}?= <desk@in.example>`);
  expect(out.includes(Buffer.from([0x52, 0x65, 0x6e, 0xe9, 0x80, 0x20, 0x3c]))).toBe(true);
});
