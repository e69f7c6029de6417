// The SMTP client's wire parts: replies however the bytes are cut, DATA framing, EHLO keywords.
import { describe, expect, test } from "bun:test";
import { ReplyReader, dataBody, hasEightBit, parseEhlo, smtpError } from "../../../src/mta/delivery/smtp-wire.ts";

describe("ReplyReader", () => {
  test("multi-line replies, cut anywhere, come out whole and in order", async () => {
    const reader = new ReplyReader();
    const first = reader.next();
    const second = reader.next();
    const bytes = Buffer.from("250-mx.example\r\n250-PIPELINING\r\n250 CHUNKING\r\n550-5.1.1 no such\r\n550 5.1.1 user\r\n");
    for (let i = 0; i < bytes.length; i += 7) reader.push(bytes.subarray(i, i + 7));
    expect(await first).toEqual({ code: 250, text: "250-mx.example\n250-PIPELINING\n250 CHUNKING" });
    expect(await second).toEqual({ code: 550, text: "550-5.1.1 no such\n550 5.1.1 user" });
  });

  test("a reply that came before anyone asked is kept; bare LF and a bare code end a line too; UTF-8 text survives", async () => {
    const reader = new ReplyReader();
    reader.push(Buffer.from("220 mx ready\n250\r\n554 5.7.1 refusé\r\n"));
    expect(reader.unread).toBe(3);
    expect(await reader.next()).toEqual({ code: 220, text: "220 mx ready" });
    expect(await reader.next()).toEqual({ code: 250, text: "250" });
    expect((await reader.next()).text).toBe("554 5.7.1 refusé");
  });

  test("an MX that never ends a line or a reply is read once and kept short: 2048 characters a line, 100 lines", async () => {
    const reader = new ReplyReader();
    const long = reader.next();
    // 16 MB without a line end, in the 64 KB pieces a socket gives: each piece used to search all kept so far again.
    const piece = Buffer.alloc(65_536, "x");
    reader.push(Buffer.from("550 5.7.1 "));
    for (let i = 0; i < 256; i++) reader.push(piece);
    reader.push(Buffer.from("\r\n"));
    expect(await long).toEqual({ code: 550, text: `550 5.7.1 ${"x".repeat(2038)}` });
    const many = reader.next();
    reader.push(Buffer.from("250-more\r\n".repeat(500_000) + "250 last\r\n"));
    const reply = await many;
    expect(reply.text.split("\n")).toEqual([...Array(100).fill("250-more"), "250 last"]);
  });

  test("a lost connection fails the waiting and every later read", async () => {
    const reader = new ReplyReader();
    const waiting = reader.next();
    reader.fail(smtpError("ECONNECTION", "closed", "CONN"));
    await expect(waiting).rejects.toMatchObject({ code: "ECONNECTION" });
    await expect(reader.next()).rejects.toMatchObject({ code: "ECONNECTION" });
  });
});

describe("dataBody", () => {
  test("a line starting with a dot gets one more (the first line too); the end is CRLF . CRLF", () => {
    expect(dataBody(Buffer.from(".first\r\nsecond\r\n..third\r\n")).toString()).toBe("..first\r\nsecond\r\n...third\r\n.\r\n");
  });
  test("a message without a final line break gets one before the end", () => {
    expect(dataBody(Buffer.from("no break")).toString()).toBe("no break\r\n.\r\n");
  });
  test("a message without dots is not rewritten", () => {
    const m = Buffer.from("Subject: x\r\n\r\nplain\r\n");
    expect(dataBody(m).toString()).toBe("Subject: x\r\n\r\nplain\r\n.\r\n");
  });
});

test("hasEightBit finds bytes above 127 only", () => {
  expect(hasEightBit(Buffer.from("plain ascii\r\n"))).toBe(false);
  expect(hasEightBit(Buffer.from("café"))).toBe(true);
});

test("parseEhlo: keywords upper-cased, parameters kept, the greeting line skipped", () => {
  const ext = parseEhlo("250-mx.example Hello\n250-size 1024\n250-PIPELINING\n250 chunking");
  expect([...ext]).toEqual([["SIZE", "1024"], ["PIPELINING", ""], ["CHUNKING", ""]]);
});
