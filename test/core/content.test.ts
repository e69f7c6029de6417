import { describe, expect, test } from "bun:test";
import { encodeContent, listsAttachments, type MessageContent } from "../../src/core/content.ts";

const content = (over: Partial<MessageContent>): MessageContent => ({
  from: { email: "a@x.test" }, to: [{ email: "b@y.test" }], subject: "s", text: "t", attachments: [],
  tracking: { opens: false, clicks: false, clickText: false, unsubscribe: false, honeypot: false }, date: 0, ...over,
});

describe("listsAttachments", () => {
  test("an empty list and a listed attachment", () => {
    expect(listsAttachments(encodeContent(content({})))).toBe(false);
    expect(listsAttachments(encodeContent(content({ attachments: [0, 1] })))).toBe(true);
  });

  test("the text of an empty list inside a value or a header is not mistaken for the list", () => {
    const tricky = '"attachments":[]';
    expect(listsAttachments(encodeContent(content({ subject: tricky, text: tricky, headers: { attachments: "[]", "X-A": tricky }, attachments: [2] })))).toBe(true);
    expect(listsAttachments(encodeContent(content({ subject: tricky, headers: { attachments: "[]" } })))).toBe(false);
  });
});
