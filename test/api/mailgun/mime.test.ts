// messages.mime reads From and Subject from the message's own header block (src/api/mailgun/mime.ts).
import { expect, test } from "bun:test";
import { Form } from "../../../src/api/mailgun/form.ts";
import { mimeToSendRequest } from "../../../src/api/mailgun/mime.ts";

const request = (message: string | File) => mimeToSendRequest("example.com", new Form(new Map([["to", ["a@dest.test"]], ["message", [message]]])), 0);

test("raw UTF-8 in From and Subject (RFC 6532) reads as UTF-8, given as a text field or as a file", async () => {
  const mime = "From: Zoë Ŋ <zoe@example.com>\r\nSubject: 5 € — ok\r\n\r\nbody\r\n";
  for (const message of [mime, new File([Buffer.from(mime, "utf8")], "m.eml")]) {
    const req = await request(message);
    expect(req.from).toEqual({ email: "zoe@example.com", name: "Zoë Ŋ" });
    expect(req.envelopes[0]!.subject).toBe("5 € — ok");
  }
});

test("the message goes on as it came, byte for byte", async () => {
  const bytes = Buffer.from("From: zoe@example.com\r\nSubject: é\r\n\r\n\xff\r\n", "latin1");
  const req = await request(new File([bytes], "m.eml"));
  expect(Buffer.from(req.envelopes[0]!.raw!).equals(bytes)).toBe(true);
});
