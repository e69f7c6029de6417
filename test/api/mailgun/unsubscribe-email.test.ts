// Mailgun's unsubscribe mailboxes: %unsubscribe_email% and %tag_unsubscribe_email% become the
// recipient's own addresses in the body and in an h:List-Unsubscribe header (as a <mailto:> URI);
// mail sent there over SMTP unsubscribes the recipient, from everything or from the message's tags.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import PostalMime from "postal-mime";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { startHarness, eventually, type MailgunHarness } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

async function delivered(rcpt: string, subject: string) {
  const find = () => h.sink.messages.find((m) => m.to.includes(rcpt) && m.raw.toString().includes(`Subject: ${subject}`));
  await eventually(async () => find() !== undefined);
  const raw = find()!.raw;
  return { text: (await PostalMime.parse(raw)).text ?? "", head: raw.toString("latin1").split(/\r?\n\r?\n/)[0]! };
}

/** One message over SMTP to the app's inbound listener (as a mail client acting on List-Unsubscribe would). */
async function mailTo(to: string): Promise<string> {
  const [host, port] = [h.smtp.slice(0, h.smtp.lastIndexOf(":")), Number(h.smtp.slice(h.smtp.lastIndexOf(":") + 1))];
  const conn = new SMTPConnection({ host, port, ignoreTLS: true });
  await new Promise<void>((ok, fail) => { conn.once("error", fail); conn.connect(() => ok()); });
  try {
    const info = await new Promise<{ response: string }>((ok, fail) => conn.send({ from: "reader@dest.test", to: [to] },
      "From: reader@dest.test\r\nTo: " + to + "\r\nSubject: unsubscribe\r\n\r\nunsubscribe\r\n", (err, i) => (err ? fail(err) : ok(i as { response: string }))));
    return info.response;
  } finally {
    conn.close();
  }
}

describe("unsubscribe mailboxes", () => {
  test("are filled in the body and in List-Unsubscribe, one address per recipient", async () => {
    await h.mg.messages.create("example.com", { from: "news@example.com", to: ["a@dest.test", "b@dest.test"], subject: "boxes",
      text: "all:%unsubscribe_email% tags:%tag_unsubscribe_email%", "h:List-Unsubscribe": "<%unsubscribe_email%>", "recipient-variables": "{}" });
    const a = await delivered("a@dest.test", "boxes");
    const b = await delivered("b@dest.test", "boxes");
    expect(a.text).not.toContain("%");
    const boxes = (t: string) => Object.fromEntries([...t.matchAll(/(\w+):(\S+@\S+)/g)].map((m) => [m[1], m[2]]));
    expect(boxes(a.text).all).toMatch(/^u\+[a-z2-7]+@bounces\.example\.com$/);
    expect(boxes(a.text).tags).toMatch(/^t\+[a-z2-7]+@bounces\.example\.com$/);
    expect(boxes(a.text).all).not.toBe(boxes(b.text).all);
    expect(a.head).toMatch(new RegExp(`^List-Unsubscribe: <mailto:${boxes(a.text).all!.replace("+", "\\+")}>`, "m"));
  });

  test("mail to the tag mailbox leaves the tags; to the plain one, all mail", async () => {
    await h.mg.messages.create("example.com", { from: "news@example.com", to: "reader@dest.test", subject: "promo", "o:tag": "promo",
      text: "all:%unsubscribe_email% tags:%tag_unsubscribe_email%" });
    const { text } = await delivered("reader@dest.test", "promo");
    const [, all, tags] = /all:(\S+) tags:(\S+)/.exec(text)!;
    expect(await mailTo(tags!)).toContain("unsubscribed");
    expect(await h.t.app.suppressions.get("example.com", "unsubscribes", "reader@dest.test")).toMatchObject({ code: "promo" });
    expect(await mailTo(all!)).toContain("unsubscribed");
    expect(await h.t.app.suppressions.get("example.com", "unsubscribes", "reader@dest.test")).toMatchObject({ code: "" });
    const events = await h.t.app.activity.events("example.com", { recipient: "reader@dest.test", types: ["unsubscribed"], limit: 10 });
    expect(events).toHaveLength(2);
  });

  test("a forged or altered mailbox is refused at RCPT", async () => {
    await expect(mailTo("u+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@bounces.example.com")).rejects.toThrow(/relay|554/);
  });
});
