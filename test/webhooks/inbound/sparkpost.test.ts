// SparkPost relay_message: friendly_from is the address in the From's first <…>, else the From as given.
import { expect, test } from "bun:test";
import { relayMessage } from "../../../src/webhooks/inbound/sparkpost.ts";
import type { ParsedMail, ReceivedEnvelope } from "../../../src/webhooks/inbound/received.ts";

const env = { mailFrom: "bounce@sender.example", auth: { spf: "pass", dkim: [], dmarc: "pass" } } as unknown as ReceivedEnvelope;
const hook = { id: "w1", name: "n", target: "t", authToken: "", matchDomain: "in.example", customerId: "1" };
const friendlyFrom = (from: string) => {
  const mail = { from, to: "", headerLines: [], html: "", subject: "", text: "", parseNote: null } as unknown as ParsedMail;
  const m = relayMessage(env, mail, new TextEncoder().encode("Subject: s\r\n\r\nbody\r\n"), "desk@in.example", hook) as { msys: { relay_message: { friendly_from: string } } };
  return m.msys.relay_message.friendly_from;
};

test("friendly_from is the first <…> with something in it, else the From itself, else the envelope sender", () => {
  expect(friendlyFrom("Zoe <zoe@sender.example>")).toBe("zoe@sender.example");
  expect(friendlyFrom("<> <<x> <y>")).toBe("<x");
  expect(friendlyFrom("zoe@sender.example")).toBe("zoe@sender.example");
  expect(friendlyFrom("<>")).toBe("<>");
  expect(friendlyFrom("")).toBe("bounce@sender.example");
});

// A From postal-mime cannot read (a message nested past its depth limit) reaches here as written:
// the regex /<([^>]+)>/ scanned to the end from each of its "<" (200,000 of them: 30 s).
test("a From of 250,000 '<' and no '>' is answered in one pass", () => {
  const from = "<".repeat(250_000);
  expect(friendlyFrom(from)).toBe(from);
});
