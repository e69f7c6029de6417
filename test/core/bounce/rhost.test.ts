import { describe, expect, test } from "bun:test";
import { rhostReason } from "../../../src/core/bounce/rhost.ts";
import { classOfReason } from "../../../src/core/bounce/reasons.ts";
import { classifyBounce } from "../../../src/core/bounce/index.ts";

describe("a big receiver's own table decides (sisimai rhost data)", () => {
  test("the answering host or the recipient's domain picks the table", () => {
    const text = "550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302)";
    expect(rhostReason({ remoteHost: "x.mail.protection.outlook.com", code: 550, enhancedCode: "5.5.0", text })).toBe("userunknown");
    expect(rhostReason({ remoteHost: "mx.example.org", code: 550, enhancedCode: "5.5.0", text })).toBeUndefined();
    expect(rhostReason({ recipientDomain: "ezweb.ne.jp", text: "550 : User unknown" })).toBe("filtered");
    expect(rhostReason({ recipientDomain: "ezweb.ne.jp", text: "550 <a@ezweb.ne.jp>: User unknown" })).toBe("userunknown");
  });
  test("receivers' own error numbers: Cox AUP#, GoDaddy IB", () => {
    expect(rhostReason({ remoteHost: "mx.east.cox.net", text: "554 rejected - AUP#CXBL" })).toBe("blocked");
    expect(rhostReason({ remoteHost: "smtp.secureserver.net", text: "550 5.7.1 x IB401 rejected" })).toBe("securityerror");
  });
  test("Google matches reply, status and phrase together", () => {
    const text = "550-5.1.1 The email account that you tried to reach does not exist.";
    expect(rhostReason({ remoteHost: "gmail-smtp-in.l.google.com", code: 550, enhancedCode: "5.1.1", text })).toBe("userunknown");
    expect(rhostReason({ remoteHost: "gmail-smtp-in.l.google.com", code: 550, enhancedCode: "5.7.1", text })).toBeUndefined();
  });
  test("every reason named in the data has a class", () => {
    for (const r of ["userunknown", "suspend", "filtered", "blocked", "speeding", "spandetected", "blokced", "mailboxfull"]) expect(classOfReason(r)).toBeDefined();
  });
});

describe("user unknown is an invalid recipient whatever command it answered (the vendors, not sisimai's filtered)", () => {
  const text = "550 Unknown user a@x.example";
  test("a report naming no command, DATA, RCPT, an X.1.1 status: hard", () => {
    expect(classifyBounce({ code: 550, text, command: "unknown" }).bounceClass).toBe(10);
    expect(classifyBounce({ code: 550, text, command: "DATA" }).bounceClass).toBe(10);
    expect(classifyBounce({ code: 550, text, command: "RCPT" }).bounceClass).toBe(10);
    expect(classifyBounce({ code: 550, enhancedCode: "5.1.1", text, command: "unknown" }).bounceClass).toBe(10);
  });
  test("a caller that tracks no command, and an MTA that never reports one, are left alone", () => {
    expect(classifyBounce({ code: 550, text }).bounceClass).toBe(10);
    expect(classifyBounce({ code: 550, text, command: "UNREPORTED" }).bounceClass).toBe(10);
  });
  test("an Exchange 2003 diagnostic number decides", () => {
    const t = "The recipient name is not recognized MSEXCH:IMS:NNN:CAT:NEKO 0 (000C05A6) Unknown Recipient";
    expect(classifyBounce({ text: t, command: "unknown" }).bounceClass).toBe(10);
    // "Ambiguous Recipient": two directory entries match the address (RFC 3463 X.1.4), not a refusal of our mail.
    expect(classifyBounce({ text: "The recipient name is ambiguous MSEXCH:IMS:NNN:CAT:NEKO 0 (000C0595) Ambiguous Recipient", command: "unknown" }).bounceClass).toBe(10);
  });
});

describe("MTAs' own verdicts", () => {
  test("PowerMTA's bounce category, InterScan's and Exchange 2003's fixed sentences", () => {
    expect(classifyBounce({ code: 550, text: "550 5.2.1 <a@x.example>... User Unknown", command: "unknown", mtaCategory: "bad-mailbox" }).bounceClass).toBe(10);
    expect(classifyBounce({ text: "(and other recipients in the same domain). Please check if address is correct.", command: "unknown" }).bounceClass).toBe(10);
    expect(classifyBounce({ text: "The recipient name is not recognized", command: "unknown" }).bounceClass).toBe(10);
  });
  test("Outlook.com's own NDR host picks Microsoft's table", () => {
    expect(rhostReason({ remoteHost: "BAY004-MC1F22.hotmail.com", code: 550, enhancedCode: "5.5.0", text: "550 Requested action not taken: mailbox unavailable" })).toBe("userunknown");
  });
});

describe("the reporting host is tried after the answering host", () => {
  test("Exchange Online's NDR for a refusal by a host sisimai does not know uses Microsoft's table", () => {
    const text = "550 5.1.351 Remote server returned unknown recipient or mailbox unavailable -> Unknown user a";
    expect(rhostReason({ remoteHost: "mx.example.ne.jp", reportingHost: "SG2APC01HT099.mail.protection.outlook.com", code: 550, enhancedCode: "5.1.351", text })).toBe("userunknown");
    expect(rhostReason({ remoteHost: "mx.example.ne.jp", code: 550, enhancedCode: "5.1.351", text })).toBeUndefined();
  });
});
