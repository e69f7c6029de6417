// Phrases about our traffic rather than the address (src/core/bounce/our-traffic.ts), each against a reply that
// says it and one that only looks like it.
import { describe, expect, test } from "bun:test";
import { DNSBL_ERROR, LISTED_SOURCE, POLICY_REFUSAL, RELAY_REFUSED, SENDER_REFUSED } from "../../../src/core/bounce/our-traffic.ts";

describe("refusals of our traffic, in the receivers' words", () => {
  test("our sender: Postfix's \"Sender address rejected\", Exim's callout, Coremail's sender domain", () => {
    expect(SENDER_REFUSED.test("550 5.7.1 <s@x.example>: Sender address rejected: mailbox disabled")).toBe(true);
    expect(SENDER_REFUSED.test("550-Verification failed for <s@x.example>\n550 Sender verify failed")).toBe(true);
    expect(SENDER_REFUSED.test("550 Mail originating from that domain is not welcome here")).toBe(true);
    expect(SENDER_REFUSED.test("550 5.1.1 <r@x.example>: Recipient address rejected: User unknown")).toBe(false);
  });
  test("a policy named as the reason, in English or Forpsi's Polish", () => {
    expect(POLICY_REFUSAL.test("421 Reject due to policy violations")).toBe(true);
    expect(POLICY_REFUSAL.test("550 5.1.0 Naruszenie zasad")).toBe(true);
    expect(POLICY_REFUSAL.test("see our privacy policy at https://x.example")).toBe(false);
  });
  test("our IP listed, but not a blocklist's error answer nor a notice's \"is listed in the section\"", () => {
    expect(LISTED_SOURCE.test("554 Client host [192.0.2.1] blocked using zen.spamhaus.org")).toBe(true);
    expect(DNSBL_ERROR.test("blocked using zen.spamhaus.org; Error: open resolver; https://www.spamhaus.org/returnc/pub/1")).toBe(true);
    expect(RELAY_REFUSED.test("554 5.7.1 <r@x.example>: Relay access denied")).toBe(true);
  });
});
