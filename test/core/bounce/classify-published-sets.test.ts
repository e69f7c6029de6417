// The classifier on texts from the later published sets of 2026-11-29 (docs/bounces.md names each set and its source).
import { describe, expect, test } from "bun:test";
import { classifyBounce } from "../../../src/core/bounce/index.ts";

describe("pastes again (a twelfth published set, 2026-11-29)", () => {
  test("Postfix's \"Sender address rejected: mailbox disabled\" is our sender refused, not a disabled recipient", () => {
    const text = "550 5.7.1 <s@sender.example>: Sender address rejected: mailbox disabled";
    for (const command of [undefined, "RCPT", "unknown"]) expect(classifyBounce({ text, command }).category).toBe("block");
  });
});

describe("GitHub threads, a third pass (a fourteenth published set, 2026-11-29)", () => {
  test("cPanel's rspamd verdict \"This message was classified as rSPAM\" is spam content, not the hard bounce its 550 would say", () => {
    expect(classifyBounce({ text: "550 This message was classified as rSPAM", command: "DATA" }).bounceClass).toBe(52);
  });
  test("\"smtp auth required\" at RCPT asks us to authenticate: a block, never a hard bounce", () => {
    expect(classifyBounce({ text: "550 smtp auth required", command: "RCPT" }).category).toBe("block");
  });
});

describe("pages in other languages, a second pass (a fifteenth published set, 2026-11-29)", () => {
  test("Coremail's \"Mail originating from that domain is not welcome here\" refuses our sender's domain, not the address", () => {
    expect(classifyBounce({ text: "550 5.0.0 <s@sender.example> : Mail originating from that domain is not welcome here", command: "RCPT" }).category).toBe("block");
  });
  test("\"blocked by SPF\" is our authentication refused, whatever the 5.1.0 beside it", () => {
    expect(classifyBounce({ text: "550 5.1.0 0bcW1i00G0jifNx01bcmHa blocked by SPF", command: "RCPT" }).category).toBe("block");
  });
});

describe("blogs and help pages (a seventeenth published set, 2026-11-29)", () => {
  test("AOL's \"will not accept delivery of this message\" after DATA is its filter, not the disabled mailbox its 5.2.1 names", () => {
    expect(classifyBounce({ text: "521 5.2.1 : AOL will not accept delivery of this message.", command: "DATA" }).category).toBe("block");
  });
  test("Zoho's \"Mailbox delivery restricted by policy error\" is a block under its 452", () => {
    expect(classifyBounce({ text: "452 4.2.2 Mailbox delivery restricted by policy error", enhancedCode: "4.2.2" }).category).toBe("block");
  });
});

describe("GitHub threads in other languages (a sixteenth published set, 2026-11-29)", () => {
  test("\"Stream is more than 10485760 bytes long\" is a size limit (23), not a block by its \"rejected\"", () => {
    expect(classifyBounce({ text: "554 Message rejected: Stream is more than 10485760 bytes long.", command: "DATA" }).bounceClass).toBe(23);
  });
});

describe("mail logs and library errors pasted in GitHub threads (an eighteenth published set, 2026-11-29)", () => {
  test("\"550 Authentication is required for relay\" is relaying refused (54), never a hard bounce", () => {
    expect(classifyBounce({ text: "550 Authentication is required for relay", command: "RCPT" }).bounceClass).toBe(54);
  });
  test("QQ's \"The mail may contain inappropriate words or content\" is spam content", () => {
    expect(classifyBounce({ text: "550 The mail may contain inappropriate words or content.", command: "DATA" }).category).toBe("block");
  });
});

describe("Office 365's NDR status box (a twenty-first published set, 2026-11-29)", () => {
  test("\"Action Required ... Unknown To address\" is an unknown recipient, also without the sentence that names the domain", () => {
    const text = "koninkrijk.amsterdam | Office 365 | Constituent -- | -- | -- Action Required | | Recipient | | | | | | | | | Unknown To address | |";
    expect(classifyBounce({ text, enhancedCode: "5.0.0", status: "5.0.0", command: "unknown" }).category).toBe("hard");
  });
});
