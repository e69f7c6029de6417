import { describe, expect, test } from "bun:test";
import PostalMime from "postal-mime";
import MailComposer from "nodemailer/lib/mail-composer";
import { canWriteLean, quotedPrintable, writeLean } from "../../../src/mta/message/mime.ts";
import type { MessageContent } from "../../../src/core/content.ts";

const base: MessageContent = { from: { email: "news@example.com", name: "News, Inc. \"Daily\"" }, to: [{ email: "a@dest.test" }, { email: "b@dest.test", name: "Bea" }],
  cc: [{ email: "c@dest.test" }], replyTo: [{ email: "reply@example.com" }], subject: "Hello there", attachments: [], date: Date.UTC(2026, 10, 24, 10),
  tracking: { opens: false, clicks: false, clickText: false, unsubscribe: false, honeypot: false } };

const BODIES: [string, Partial<MessageContent>][] = [
  ["text and html", { text: "plain body", html: "<p>html body</p>" }],
  ["html only, long lines, = signs and trailing blanks", { html: `<p style="color:red">${"x=y ".repeat(60)}</p>  \n<a href="https://e.test/?a=1&b=2">l</a>\t` }],
  ["text only, UTF-8", { text: "Grüße aus Köln — 東京 ✓\r\nsecond line\n\nthird" }],
  ["a line made of escapes", { text: "é".repeat(100) }],
];

async function parse(raw: Buffer) { return PostalMime.parse(raw); }

describe("lean MIME writer", () => {
  for (const [name, body] of BODIES) {
    test(`${name}: reads back like nodemailer's output`, async () => {
      const c = { ...base, ...body };
      expect(canWriteLean(c, c, 0)).toBe(true);
      const lean = await parse(writeLean(c, c, "<m1@example.com>", { "X-Postern-Id": "m1" }));
      const nm = await parse(await new MailComposer({ from: { name: c.from.name!, address: c.from.email }, to: ["a@dest.test", { name: "Bea", address: "b@dest.test" }],
        cc: ["c@dest.test"], replyTo: ["reply@example.com"], subject: c.subject, text: c.text, html: c.html, date: new Date(c.date), messageId: "<m1@example.com>" }).compile().build());
      for (const k of ["subject", "messageId", "date"] as const) expect(lean[k]).toEqual(nm[k]);
      // postal-mime ends every quoted-printable text with a line break; nodemailer sometimes picks base64.
      for (const k of ["text", "html"] as const) expect(lean[k]?.replace(/\n$/, "")).toEqual(nm[k]?.replace(/\n$/, ""));
      expect(lean.from).toEqual(nm.from);
      expect(lean.to).toEqual(nm.to);
      expect(lean.cc).toEqual(nm.cc);
      expect(lean.replyTo).toEqual(nm.replyTo);
      expect(lean.headers.find((h) => h.key === "x-postern-id")?.value).toBe("m1");
    });
  }

  test("a To and Cc of many recipients are folded between addresses: no line passes 78 characters, and every address reads back", async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ email: `recipient-${i}@dest.test`, ...(i % 3 ? {} : { name: `Person ${i}` }) }));
    const c = { ...base, to: many, cc: many.slice(0, 20), text: "t" };
    expect(canWriteLean(c, c, 0)).toBe(true);
    const raw = writeLean(c, c, "<m1@example.com>", {});
    const head = raw.toString("latin1").split("\r\n\r\n")[0]!;
    for (const line of head.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    const parsed = await parse(raw);
    expect(parsed.to?.map((a) => `${a.name}|${a.address}`)).toEqual(many.map((a) => `${a.name ?? ""}|${a.email}`));
    expect(parsed.cc?.map((a) => a.address)).toEqual(many.slice(0, 20).map((a) => a.email));
  });

  test("quoted-printable lines stay within 76 characters, end in no blank and decode to the text", () => {
    const decode = (qp: string) => Buffer.from(qp.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");
    for (const text of ["é".repeat(100), `${"a".repeat(74)}=b`, `${"a".repeat(200)} `, "x\t".repeat(80), "a=b\r\nline two "]) {
      const qp = quotedPrintable(text);
      for (const line of qp.split("\r\n")) {
        expect(line.length).toBeLessThanOrEqual(76);
        expect(line).not.toMatch(/[ \t]$/);
      }
      expect(decode(qp)).toBe(text.replace(/\r\n/g, "\r\n"));
    }
  });

  test("attachments, AMP, non-ASCII subjects and names, and address-like custom headers go to nodemailer", () => {
    const body = { text: "t" };
    expect(canWriteLean({ ...base, ...body, attachments: [0] }, body, 1)).toBe(false);
    expect(canWriteLean({ ...base, ...body, amp: "<html amp4email></html>" }, body, 0)).toBe(false);
    expect(canWriteLean({ ...base, ...body, subject: "Grüße" }, body, 0)).toBe(false);
    expect(canWriteLean({ ...base, ...body, from: { email: "a@example.com", name: "Zoë" } }, body, 0)).toBe(false);
    expect(canWriteLean({ ...base, ...body }, { ...body, headers: { Sender: "x@example.com" } }, 0)).toBe(false);
    expect(canWriteLean({ ...base, ...body }, { ...body, headers: { "X-Tag": "ünïcode" } }, 0)).toBe(false);
    expect(canWriteLean({ ...base, ...body }, { ...body, headers: { "X-Mailgun-Variables": "{\"a\": 1}" } }, 0)).toBe(true);
    // Written unfolded: a long name with a long value would pass 998 characters on one line; nodemailer folds it.
    expect(canWriteLean({ ...base, ...body }, { ...body, headers: { [`X-${"n".repeat(300)}`]: "v".repeat(800) } }, 0)).toBe(false);
  });
});
