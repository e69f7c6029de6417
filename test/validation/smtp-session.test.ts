import { describe, expect, test } from "bun:test";
import { createReplyParser, SmtpSessionError } from "../../src/validation/smtp-session.ts";

describe("createReplyParser", () => {
  test("joins a multi-line reply and ends it at the line with a space", () => {
    const parse = createReplyParser();
    expect(parse("250-mx.example.test\r\n250-PIPELINING\r\n")).toEqual([]);
    expect(parse("250 SMTPUTF8\r\n")).toEqual([{ code: 250, lines: ["mx.example.test", "PIPELINING", "SMTPUTF8"] }]);
  });

  test("reads the enhanced status code of the first line", () => {
    expect(createReplyParser()("550 5.1.1 <x@y.test>: Recipient address rejected\r\n")[0]).toMatchObject({
      code: 550,
      enhancedCode: "5.1.1",
    });
  });

  test("copes with replies split across packets and bare LF endings", () => {
    const parse = createReplyParser();
    expect(parse("22")).toEqual([]);
    expect(parse("0 ready\n221 bye\n").map((r) => r.code)).toEqual([220, 221]);
  });

  test("refuses a line that is not an SMTP reply", () => {
    expect(() => createReplyParser()("HTTP/1.1 400 Bad Request\r\n")).toThrow(SmtpSessionError);
  });
});
