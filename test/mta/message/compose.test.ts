import { describe, expect, test } from "bun:test";
import PostalMime from "postal-mime";
import { prepareMessage } from "../../../src/mta/message/compose.ts";
import { encodeContent, type MessageContent } from "../../../src/core/content.ts";
import { createTokenCodec } from "../../../src/tracking/token.ts";
import type { StoredMessage } from "../../../src/core/store-port.ts";

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
