import { describe, expect, test } from "bun:test";
import PostalMime from "postal-mime";
import { prepareMessage } from "../../../src/mta/message/compose.ts";
import { encodeContent, type MessageContent } from "../../../src/core/content.ts";
import { createTokenCodec } from "../../../src/tracking/token.ts";
import type { StoredMessage } from "../../../src/core/store-port.ts";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { generateDkimKeys, dkimRecordValue } from "../../../src/core/dkim-keys.ts";
import { createSigner } from "../../../src/mta/message/sign.ts";
import { dkimpyVerify } from "../../helpers/dkimpy.ts";

const content = (extra: Partial<MessageContent>): MessageContent => ({
  from: { email: "news@a.test" }, to: [{ email: "rcpt@x.test" }], subject: "s", text: "t", attachments: [],
  tracking: { opens: false, clicks: false, clickText: false, unsubscribe: false, honeypot: false }, date: 1_800_000_000_000, ...extra,
});

const message = (c: MessageContent): StoredMessage => ({
  id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@mta.test>", from: "news@a.test", subject: "s", content: encodeContent(c),
  raw: null, tags: [], metadata: {}, callbackUrl: null, source: "sparkpost", isTest: false, size: 1, createdAt: 1_800_000_000_000,
});

const parse = async (c: MessageContent) => {
  const prepared = prepareMessage(message(c), [], { publicUrl: "http://127.0.0.1", codec: createTokenCodec("secret"), hostname: "mta.test" });
  return PostalMime.parse(await prepared.build("r1"));
};

describe("composing To and Cc", () => {
  test("display lists replace the delivery recipients in the headers", async () => {
    const m = await parse(content({ to: [{ email: "hidden@x.test" }], displayTo: [{ email: "shown@x.test", name: "Shown" }],
      displayCc: [{ email: "cc@x.test" }] }));
    expect(m.to?.map((a) => `${a.name}|${a.address}`)).toEqual(["Shown|shown@x.test"]);
    expect(m.cc?.map((a) => a.address)).toEqual(["cc@x.test"]);
  });
  test("without display lists the headers show to and cc", async () => {
    const m = await parse(content({ cc: [{ email: "c@x.test" }] }));
    expect(m.to?.map((a) => a.address)).toEqual(["rcpt@x.test"]);
    expect(m.cc?.map((a) => a.address)).toEqual(["c@x.test"]);
  });
});

describe("raw messages (email_rfc822, messages.mime)", () => {
  const rawMessage = (raw: string): StoredMessage => ({ ...message(content({})), content: null, raw: Buffer.from(raw, "latin1") });
  const built = (raw: string) => prepareMessage(rawMessage(raw), [], { publicUrl: "http://127.0.0.1", codec: createTokenCodec("secret"), hostname: "mta.test" }).build("r1");

  test("LF line ends go out as CRLF, the last line ends with one, and both DKIM verifiers agree", async () => {
    // A pasted message: LF only, a Bcc to drop, a last line with trailing blanks and no line end.
    const out = await built("From: news@a.test\nBcc: hidden@x.test\nSubject: s\n\nline one \n\nlast line  ");
    const text = out.toString("latin1");
    expect(text).not.toMatch(/(?<!\r)\n/);
    expect(text.endsWith("last line  \r\n")).toBe(true);
    expect(text).toMatch(/^Message-ID: <m1@mta\.test>\r\nDate: .*\r\nX-Postern-Id: m1\r\nFrom: news@a\.test\r\nSubject: s\r\n\r\nline one \r\n\r\nlast line {2}\r\n$/s);
    const keys = (await generateDkimKeys("s1")).map((k) => ({ ...k, domainId: 1 }));
    const records = Object.fromEntries(keys.map((k) => [`${k.selector}._domainkey.a.test`, dkimRecordValue(k)]));
    const signed = await createSigner({ keysFor: async () => keys, now: () => 1_700_000_000_000 }).sign(out, "a.test");
    expect(await dkimpyVerify(signed, records)).toEqual([true, true]);
    const resolver = async (name: string) => [[records[name]!]];
    expect((await dkimVerify(signed, { resolver: resolver as never })).results.map((r) => r.status.result)).toEqual(["pass", "pass"]);
  });
  test("a CRLF message keeps its bytes after the headers postern adds", async () => {
    const raw = "From: news@a.test\r\nMessage-ID: <own@a.test>\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\r\nbody \r\n";
    expect((await built(raw)).toString("latin1")).toBe(`X-Postern-Id: m1\r\n${raw}`);
  });
});
