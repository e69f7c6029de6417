import { describe, expect, test } from "bun:test";
import {
  classifyReply,
  flattenReply,
  nextAttemptAt,
  parseEnhancedCode,
  type DeliveryKind,
  type ReplyInput,
} from "../../../src/mta/delivery/outcome.ts";

type Row = [name: string, input: ReplyInput, kind: DeliveryKind, permanent: boolean, code?: number, enhanced?: string];

const GMAIL_NO_SUCH_USER = [
  "550-5.1.1 The email account that you tried to reach does not exist. Please try",
  "550-5.1.1 double-checking the recipient's email address for typos or",
  "550-5.1.1 unnecessary spaces. For more information, go to",
  "550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a1si123.45 - gsmtp",
].join("\n");

const ROWS: Row[] = [
  ["250 after DATA is delivered", { responseCode: 250, response: "250 2.0.0 Ok: queued as 4Xabc", command: "DATA" }, "delivered", false, 250, "2.0.0"],
  ["250 without enhanced code is delivered", { responseCode: 250, response: "250 OK id=1tAbCd" }, "delivered", false, 250, undefined],
  ["451 greylisting defers", { responseCode: 451, response: "451 4.7.1 Greylisted, try again later", errorCode: "EENVELOPE", command: "RCPT TO" }, "deferred", false, 451, "4.7.1"],
  ["421 closing defers", { responseCode: 421, response: "421 4.7.0 Try again later, closing connection.", errorCode: "ECONNECTION", command: "CONN" }, "deferred", false, 421, "4.7.0"],
  ["452 4.2.2 over quota defers", { responseCode: 452, response: "452 4.2.2 The email account that you tried to reach is over quota." }, "deferred", false, 452, "4.2.2"],
  ["550 5.1.1 unknown user fails permanently", { responseCode: 550, response: "550 5.1.1 <x@example.org>: Recipient address rejected: User unknown", errorCode: "EENVELOPE", command: "RCPT TO" }, "failed", true, 550, "5.1.1"],
  ["Gmail multi-line 550-5.1.1 fails permanently", { responseCode: 550, response: GMAIL_NO_SUCH_USER, errorCode: "EENVELOPE", command: "RCPT TO" }, "failed", true, 550, "5.1.1"],
  ["Microsoft 550 5.7.515 fails permanently", { responseCode: 550, response: "550 5.7.515 Access denied, sending domain example.com does not meet the required authentication level.", command: "DATA" }, "failed", true, 550, "5.7.515"],
  ["Exchange 550 5.1.10 fails permanently", { responseCode: 550, response: "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup", command: "RCPT TO" }, "failed", true, 550, "5.1.10"],
  ["the reply code beats the error code (ETIMEDOUT with 554)", { responseCode: 554, response: "554 5.7.1 Message rejected as spam", errorCode: "ETIMEDOUT", command: "DATA" }, "failed", true, 554, "5.7.1"],
  ["the reply code beats the error code (ECONNECTION with 250)", { responseCode: 250, response: "250 2.0.0 Ok", errorCode: "ECONNECTION", command: "DATA" }, "delivered", false, 250, "2.0.0"],
  ["a code found only in the response text counts", { response: "550 5.1.1 No such user", errorCode: "EENVELOPE", command: "RCPT TO" }, "failed", true, 550, "5.1.1"],
  ["550 with a contradicting 4.2.2 follows the reply code", { responseCode: 550, response: "550 4.2.2 Mailbox full" }, "failed", true, 550, "5.0.0"],
  ["451 with a contradicting 5.7.1 follows the reply code", { responseCode: 451, response: "451 5.7.1 Temporary policy rejection" }, "deferred", false, 451, "4.0.0"],
  ["552 5.2.2 mailbox full is retried (RFC 3463 X.2.2)", { responseCode: 552, response: "552 5.2.2 Mailbox full", command: "DATA" }, "deferred", false, 552, "5.2.2"],
  ["552 to RCPT is too many recipients and retried (RFC 5321 4.5.3.1.10)", { responseCode: 552, response: "552 Too many recipients", command: "RCPT TO" }, "deferred", false, 552, undefined],
  ["552 5.3.4 message too big on DATA fails", { responseCode: 552, response: "552 5.3.4 Message size exceeds fixed limit", command: "DATA" }, "failed", true, 552, "5.3.4"],
  ["503 bad sequence is retried", { responseCode: 503, response: "503 5.5.1 Error: need RCPT command", command: "DATA" }, "deferred", false, 503, "5.5.1"],
  ["554 greeting is a session rejection and retried", { responseCode: 554, response: "554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked", errorCode: "EPROTOCOL", command: "CONN" }, "deferred", false, 554, "5.7.1"],
  ["535 smarthost AUTH failure is retried", { responseCode: 535, response: "535 5.7.8 Error: authentication failed", errorCode: "EAUTH", command: "AUTH PLAIN" }, "deferred", false, 535, "5.7.8"],
  ["354 as a final answer is retried", { responseCode: 354, response: "354 End data with <CR><LF>.<CR><LF>", errorCode: "EPROTOCOL", command: "DATA" }, "deferred", false, 354, undefined],
  ["ECONNECTION without reply defers", { errorCode: "ECONNECTION", command: "CONN", errorMessage: "Connection closed unexpectedly" }, "deferred", false, undefined, "4.4.2"],
  ["ETIMEDOUT defers", { errorCode: "ETIMEDOUT", command: "CONN" }, "deferred", false, undefined, "4.4.2"],
  ["EDNS defers", { errorCode: "EDNS", command: "CONN" }, "deferred", false, undefined, "4.4.3"],
  ["ESOCKET defers", { errorCode: "ESOCKET", command: "CONN" }, "deferred", false, undefined, "4.4.1"],
  ["ETLS defers", { errorCode: "ETLS", command: "STARTTLS" }, "deferred", false, undefined, "4.7.5"],
  ["EPROTOCOL without reply defers", { errorCode: "EPROTOCOL", command: "CONN" }, "deferred", false, undefined, "4.5.0"],
  ["EREQUIRETLS fails permanently (RFC 8689)", { errorCode: "EREQUIRETLS", command: "MAIL FROM" }, "failed", true, undefined, "5.7.30"],
  ["local EENVELOPE fails permanently", { errorCode: "EENVELOPE", command: "API", errorMessage: "No recipients defined" }, "failed", true, undefined, "5.1.3"],
  ["local EMESSAGE size fails permanently", { errorCode: "EMESSAGE", command: "MAIL FROM", errorMessage: "Message size larger than allowed 1000" }, "failed", true, undefined, "5.3.4"],
  ["an unknown error code defers", { errorCode: "ECONNREFUSED" }, "deferred", false, undefined, "4.0.0"],
  ["nothing at all defers", {}, "deferred", false, undefined, "4.0.0"],
  ["an out-of-range reply code is ignored", { responseCode: 999, errorCode: "ECONNECTION" }, "deferred", false, undefined, "4.4.2"],
];

describe("classifyReply", () => {
  for (const [name, input, kind, permanent, code, enhanced] of ROWS) {
    test(name, () => {
      const outcome = classifyReply(input);
      expect(outcome.kind).toBe(kind);
      expect(outcome.permanent).toBe(permanent);
      expect(outcome.code).toBe(code);
      expect(outcome.enhancedCode).toBe(enhanced);
      expect(outcome.message.length).toBeGreaterThan(0);
    });
  }

  test("joins a multi-line reply into one readable line", () => {
    const outcome = classifyReply({ responseCode: 550, response: GMAIL_NO_SUCH_USER });
    expect(outcome.message).toBe(
      "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. For more information, go to https://support.google.com/mail/?p=NoSuchUser a1si123.45 - gsmtp",
    );
  });

  test("names the error code in the message when there is no reply", () => {
    expect(classifyReply({ errorCode: "ETIMEDOUT", errorMessage: "Timeout" }).message).toBe("ETIMEDOUT: Timeout");
  });
});

describe("parseEnhancedCode", () => {
  const cases: [string, string | undefined][] = [
    ["550 5.1.1 user unknown", "5.1.1"],
    ["550-5.1.1 The email account", "5.1.1"],
    ["5.7.26 unauthenticated", "5.7.26"],
    ["550; 5.7.515 Access denied", "5.7.515"],
    ["550 Requested action not taken", undefined],
    ["550 5.1.1.1 not a code", undefined],
    ["550 3.1.1 bad class", undefined],
    ["421 4.07.001 leading zeros", "4.7.1"],
  ];
  for (const [text, expected] of cases) {
    test(`reads ${JSON.stringify(text)}`, () => expect(parseEnhancedCode(text)).toBe(expected));
  }

  test("flattenReply keeps single-line replies as they are", () => {
    expect(flattenReply("250 2.0.0 Ok: queued as ABC")).toBe("250 2.0.0 Ok: queued as ABC");
  });
});

describe("nextAttemptAt", () => {
  const MINUTE_MS = 60_000;
  const HOUR_MS = 60 * MINUTE_MS;
  const SCHEDULE_MS = [5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 6 * HOUR_MS];
  const LIFETIME_MS = 5 * 24 * HOUR_MS;
  const T0 = 1_800_000_000_000;

  const cases: [name: string, attempts: number, now: number, expected: number | null][] = [
    ["waits the first step after the first attempt", 1, T0, T0 + 5 * MINUTE_MS],
    ["waits the second step after the second attempt", 2, T0 + 5 * MINUTE_MS, T0 + 35 * MINUTE_MS],
    ["waits the last step at the end of the schedule", 4, T0 + HOUR_MS, T0 + 7 * HOUR_MS],
    ["repeats the last step past the end of the schedule", 9, T0 + 30 * HOUR_MS, T0 + 36 * HOUR_MS],
    ["treats zero attempts as one", 0, T0, T0 + 5 * MINUTE_MS],
    ["pulls the last retry in to the end of the lifetime", 9, T0 + LIFETIME_MS - HOUR_MS, T0 + LIFETIME_MS],
    ["gives up once the lifetime is over", 9, T0 + LIFETIME_MS, null],
    ["gives up long after the lifetime", 3, T0 + 2 * LIFETIME_MS, null],
  ];
  for (const [name, attempts, now, expected] of cases) {
    test(name, () => expect(nextAttemptAt(attempts, T0, now, SCHEDULE_MS, LIFETIME_MS)).toBe(expected));
  }

  test("gives up at once with an empty schedule", () => {
    expect(nextAttemptAt(1, T0, T0, [], LIFETIME_MS)).toBeNull();
  });

  test("never schedules in the past for a negative step", () => {
    expect(nextAttemptAt(1, T0, T0 + 10, [-5], LIFETIME_MS)).toBe(T0 + 10);
  });
});
