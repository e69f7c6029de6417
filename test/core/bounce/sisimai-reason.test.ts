import { describe, expect, test } from "bun:test";
import { matches, preferStatus, sisimaiReasonOf } from "../../../src/core/bounce/sisimai-reason.ts";

describe("sisimai's reason, decided in sisimai's order on its own lists", () => {
  test("phrase lists: Index, aligned Pairs, IsNot", () => {
    expect(matches("userunknown", "550 5.1.1 user unknown")).toBe(true);
    expect(matches("userunknown", "this user doesn't have a yahoo.com account")).toBe(true); // a Pair
    expect(matches("mailboxfull", "550 user unknown")).toBe(false);
  });
  test("the Status field is preferred unless it says less than the code in the text", () => {
    expect(preferStatus("5.0.0", "5.1.1", 550)).toBe("5.1.1");
    expect(preferStatus("5.1.1", "5.1.1", 550)).toBe("5.1.1");
    expect(preferStatus("5.2.2", "5.1.1", 550)).toBe("5.2.2");
    expect(preferStatus("", "5.7.1", 550)).toBe("5.7.1");
  });
  test("an unknown user is userunknown at RCPT or with an address status, filtered otherwise", () => {
    const text = "550 Unknown user kijitora@example.jp";
    expect(sisimaiReasonOf({ status: "5.0.0", reply: 550, text, command: "RCPT" }).reason).toBe("userunknown");
    expect(sisimaiReasonOf({ status: "5.1.1", reply: 550, text, command: "" }).reason).toBe("userunknown");
    expect(sisimaiReasonOf({ status: "5.0.0", reply: 550, text, command: "" }).reason).toBe("filtered");
    expect(sisimaiReasonOf({ status: "5.0.0", reply: 550, text, command: "DATA" }).reason).toBe("filtered");
  });
  test("status classes and fallbacks", () => {
    expect(sisimaiReasonOf({ status: "5.2.2", reply: 552, text: "552 quota", command: "RCPT" }).reason).toBe("mailboxfull");
    expect(sisimaiReasonOf({ status: "5.6.0", reply: 550, text: "550 media error", command: "DATA" }).reason).toBe("contenterror");
    expect(sisimaiReasonOf({ status: "5.0.0", text: "procmail: couldn't create", command: "", diagnosticType: "X-UNIX" }).reason).toBe("mailererror");
    expect(sisimaiReasonOf({ status: "5.0.0", text: "nyaan", command: "" }).reason).toBe("onhold");
    expect(sisimaiReasonOf({ status: "5.0.0", text: "", command: "" }).reason).toBe("undefined");
  });
});
