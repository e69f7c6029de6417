// What a failure states decides first: the RFC 3463 status, then the refused command, then the
// receivers' own texts (with the vendors' convention: a missing mailbox is hard after DATA too).
import { describe, expect, test } from "bun:test";
import { classifyBounce } from "../../../src/core/bounce/index.ts";
import { statedClass } from "../../../src/core/bounce/stated.ts";
import { statesUnknownHost, statesUnknownRecipient, UNKNOWN_RECIPIENT_TEXTS } from "../../../src/core/bounce/receiver-texts.ts";

const cls = (text: string, more: Record<string, unknown> = {}) => classifyBounce({ text, command: "unknown", ...more }).bounceClass;

describe("the enhanced status code first", () => {
  test("X.1.1, X.1.2, X.1.10 are hard; X.2.2 mailbox full and X.3.4 too big are soft; X.7.x is a block", () => {
    expect(statedClass({ code: 550, enhancedCode: "5.1.1" }, "550 5.1.1 refused")?.cls).toBe(10);
    expect(statedClass({ code: 550, enhancedCode: "5.1.2" }, "550 5.1.2 bad destination system")?.cls).toBe(10);
    expect(statedClass({ code: 550, enhancedCode: "5.1.10" }, "550 5.1.10 refused")?.cls).toBe(10);
    expect(statedClass({ code: 552, enhancedCode: "5.2.2" }, "552 5.2.2 refused")?.cls).toBe(22);
    expect(statedClass({ code: 552, enhancedCode: "5.3.4" }, "552 5.3.4 refused")?.cls).toBe(23);
    expect(statedClass({ code: 550, enhancedCode: "5.7.26" }, "550 5.7.26 unauthenticated")).toEqual({ cls: 50, categoryOnly: true });
    expect(cls("550 5.7.26 This mail has been blocked because the sender is unauthenticated.")).toBe(50);
  });
  test("a 4xx is never hard, whatever its words", () => {
    expect(classifyBounce({ text: "450 4.1.1 <a@x.example>: Recipient address rejected: User unknown", command: "RCPT" }).category).toBe("soft");
    expect(classifyBounce({ text: "421 Host unknown, try later", command: "unknown" }).category).toBe("soft");
  });
  test("a rate or relaying phrase outweighs an address status (GoDaddy's 5.1.1 rate limit)", () => {
    expect(statedClass({ code: 550, enhancedCode: "5.1.1" }, "550 5.1.1 relay access denied")).toBeUndefined();
  });
  test("a size refusal outweighs the address status it came with", () => {
    expect(cls("550 RCPT TO:<a@x.example> max message size exceeded", { enhancedCode: "5.1.1" })).toBe(23);
  });
});

describe("sisimai's \"filtered\" for a missing mailbox is the vendors' invalid recipient", () => {
  test("its own list's words for an unknown user, where the report names no command, are hard, \"domain\" or not", () => {
    expect(cls("The message contained at least one invalid address in the @uni.example domain.")).toBe(10);
  });
  test("relaying refused stays a relaying refusal", () => {
    expect(cls("554 5.7.1 <a@x.example>: Relay access denied")).toBe(54);
  });
});

describe("the refused command next", () => {
  test("a recipient refused at RCPT is invalid; the same words after DATA say nothing of the address", () => {
    expect(statedClass({ code: 550 }, "550 <a@x.example> recipient rejected", "RCPT")?.cls).toBe(10);
    expect(statedClass({ code: 550 }, "550 <a@x.example> recipient rejected", "DATA")).toBeUndefined();
  });
});

describe("the receivers' own texts", () => {
  test.each([
    ["554 delivery error: dd This user doesn't have a yahoo.com account (a@yahoo.com) [0] - mta1010.mail.gq1.yahoo.com", "DATA"],
    ["554 delivery error: dd Sorry your message to a@yahoo.com cannot be delivered. This account has been disabled or discontinued [#102].", "DATA"],
    ["550 5.1.1 RESOLVER.ADR.RecipNotFound; not found", "unknown"],
    ["550 Requested action not taken: mailbox unavailable", "unknown"],
    ["550-5.1.1 The email account that you tried to reach does not exist.", "unknown"],
    ["550 Message was not accepted -- invalid mailbox. Local mailbox a@mail.ru is unavailable: user not found", "DATA"],
    ["550 Пользователь не найден", "unknown"],
    ["550 Нет такого пользователя", "unknown"],
    ["550 用户不存在", "unknown"],
    ["550 5.7.1 No such user!", "unknown"],
    ["The message that you sent was undeliverable to the following: a (user not found)", "unknown"],
    ["553 sorry, badrcptto(user mail-box not found) (#5.7.1)", "unknown"],
    ["500 (err.nosuchuser)", "unknown"],
    ["550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [x.prod.protection.outlook.com]", "unknown"],
  ])("%s is hard and suppresses", (text, command) => {
    expect(classifyBounce({ text, command }).bounceClass).toBe(10);
  });
  test("host unknown is hard, never soft", () => {
    expect(cls("550 example.org (smtp)... Host unknown")).toBe(10);
    expect(cls("a@x.example: no valid MX hosts found")).toBe(10);
    expect(statesUnknownHost("Host or domain name not found. Name service error for name=x type=A: Host not found, try again")).toBe(false);
  });
  test("every text names its source", () => {
    for (const t of UNKNOWN_RECIPIENT_TEXTS) expect(t.source.length).toBeGreaterThan(20);
    expect(statesUnknownRecipient("550 5.7.1 message rejected as spam")).toBe(false);
  });
});

describe("words about our traffic are not about the address", () => {
  test("a sender verification that found our domain unrouteable is a block, not an invalid recipient", () => {
    expect(cls("550-Verification failed for <someone@example.net> 550-Unrouteable address 550 Sender verify failed")).toBe(50);
    expect(cls("550 Unrouteable address")).toBe(10);
  });
});

describe("a missing mailbox in any words, with no reply code (a text bounce's bare 5.0.0)", () => {
  test.each([
    "Unknown local user",
    "user doesn't have an account",
    "jdoe is not a valid mailbox",
    "jdoe@hotmail.com is not a valid Hotmail account",
    "Invalid receiver address: jdoe@example.com",
    "unknown or illegal alias: jdoe@me.com",
    "The email address you entered couldn't be found. Please check the recipient's email address and try to resend the message.",
    "The recipient's e-mail address was not found in the recipient's e-mail system.",
    "Your message to jdoe@example.com couldn't be delivered. jdoe wasn't found at example.com.",
    "Mailbox has been closed",
    "this address no longer accepts mail",
    "Der Empfänger ist nicht bekannt",
    "Utente non trovato",
    "Conta inexistente",
    "Schránka neexistuje",
    "Användaren finns inte",
    "Postkassen findes ikke",
    "Kullanıcı bulunamadı",
    "宛先のメールアドレスは存在しません",
    "존재하지 않는 사용자입니다",
    "Esta casilla ha expirado por falta de uso",
    "La cuenta de correo ha sido dada de baja",
  ])("%s is hard", (text) => {
    expect(classifyBounce({ text, command: "unknown", status: "5.0.0", enhancedCode: "5.0.0" }).bounceClass).toBe(10);
  });
  test("a temporary failure in the same words stays soft", () => {
    expect(classifyBounce({ text: "451 Der Empfänger ist nicht bekannt", command: "unknown" }).category).toBe("soft");
  });
});
