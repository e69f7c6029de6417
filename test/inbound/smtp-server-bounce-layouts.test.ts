// Every real DSN is accepted as a report, whatever its layout (#38): bounces written here by hand in
// the layouts MTAs use (no report-type, plain-text NDRs of qmail, Exchange, Lotus, old Postfix, a
// notice that names nobody), each sent through the real inbound SMTP listener to the VERP return
// path of a message postern really sent, with a null sender as MTAs send DSNs (RFC 5321 §4.5.5).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp;
let sink: Sink;
let smtpPort = 0;
let principal: Principal;

beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  const where = await t.app.start();
  smtpPort = Number(where.smtp!.split(":").pop());
  principal = (await t.app.access.authenticate(t.domainKey))!;
});
afterAll(async () => { await t.close(); await sink.close(); });

async function sendAndCapture(rcpt: string): Promise<string> {
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
    envelopes: [{ to: [{ email: rcpt }], subject: "hi", text: "body" }] });
  return (await sink.waitFor(before + 1))[before]!.from;
}

function smtpSend(from: string, to: string, raw: string): Promise<{ ok: boolean; response?: string }> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
  return new Promise((resolve) => {
    conn.on("error", (e: Error & { response?: string }) => resolve({ ok: false, response: e.response }));
    conn.connect(() => conn.send({ from, to: [to] }, raw, (err, info) => {
      conn.quit();
      resolve(err ? { ok: false, response: (err as { response?: string }).response } : { ok: true, response: info.response });
    }));
  });
}

const head = (from: string, to: string, subject: string, type = "text/plain; charset=us-ascii") =>
  `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: Sat, 28 Nov 2026 07:00:00 +0000\r\nMessage-ID: <layout-${Math.random()}@mx.dest.test>\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n\r\n`;

/** name, the report (VERP path, recipient) → raw, whether it must suppress. */
const LAYOUTS: [string, (vp: string, rcpt: string) => string, boolean][] = [
  ["multipart/report without report-type", (vp, rcpt) => head("MAILER-DAEMON@mx.dest.test", vp, "Delivery Status Notification (Failure)", 'multipart/report; boundary="B"') +
    `--B\r\nContent-Type: text/plain\r\n\r\nDelivery to ${rcpt} failed.\r\n--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.dest.test\r\n\r\nFinal-Recipient: rfc822; ${rcpt}\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user unknown\r\n--B--\r\n`, true],
  ["qmail text", (vp, rcpt) => head("MAILER-DAEMON@mx.dest.test", vp, "failure notice") +
    `Hi. This is the qmail-send program at mx.dest.test.\r\nI'm afraid I wasn't able to deliver your message to the following addresses.\r\nThis is a permanent error; I've given up. Sorry it didn't work out.\r\n\r\n<${rcpt}>:\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n`, true],
  ["Exchange text", (vp, rcpt) => head("postmaster@dest.test", vp, "Undeliverable: hi") +
    `Your message did not reach some or all of the intended recipients.\r\n\r\n      Subject:  hi\r\n\r\nThe following recipient(s) cannot be reached:\r\n\r\n      ${rcpt} on 28/11/2026 07:00\r\n            The e-mail account does not exist at the organization this message was sent to.\r\n            <mx.dest.test #5.1.1 smtp;550 5.1.1 RESOLVER.ADR.RecipNotFound; not found>\r\n`, true],
  ["Lotus Domino text", (vp, rcpt) => head("Postmaster@dest.test", vp, `DELIVERY FAILURE: User ${rcpt.split("@")[0]} not listed in Domino Directory`) +
    `Your message\r\n\r\n  Subject: hi\r\n\r\nwas not delivered to:\r\n\r\n  ${rcpt}\r\n\r\nbecause:\r\n\r\n  User ${rcpt.split("@")[0]} (${rcpt}) not listed in Domino Directory\r\n`, true],
  ["Yahoo's dd refused after DATA, in an old Postfix text", (vp, rcpt) => head("MAILER-DAEMON@relay.dest.test (Mail Delivery System)", vp, "Undelivered Mail Returned to Sender") +
    `This is the mail system at host relay.dest.test.\r\n\r\n<${rcpt}>: host mx.dest.test[192.0.2.9] said: 554 delivery error: dd This user doesn't have a yahoo.com account (${rcpt}) [0] - mta1010.mail.gq1.yahoo.com (in reply to end of DATA command)\r\n`, true],
  ["a notice that names nobody and states no reason", (vp) => head("postmaster@dest.test", vp, "Returned mail") +
    `The message you sent could not be handed on. Contact the administrator of this site for details.\r\n`, false],
  ["a mailbox-full warning (deferred, never suppressed)", (vp, rcpt) => head("postmaster@dest.test", vp, "Mail Delivery Warning") +
    `This is an advisory-only email.\r\n\r\nDelivery of email to this address\r\n\r\n"${rcpt}"\r\n\r\nhas been postponed due to a full mailbox.\r\n\r\nWe will continue to try to deliver your message over the next few days.\r\n`, false],
];

async function outcomeOf(rcpt: string): Promise<string | undefined> {
  for (let i = 0; i < 60; i++) {
    for (const zone of t.app.store.zoneNames()) {
      const events = await t.app.store.zone(zone).searchEvents({ recipient: rcpt, types: ["failed", "deferred"], limit: 5 } as never);
      if (events[0]) return events[0].type;
    }
    await Bun.sleep(50);
  }
  return undefined;
}

describe("a bounce to a VERP address is accepted and classified whatever its layout", () => {
  for (const [i, [name, make, suppresses]] of LAYOUTS.entries()) {
    test(name, async () => {
      const rcpt = `layout${i}@dest.test`;
      const vp = await sendAndCapture(rcpt);
      const res = await smtpSend("", vp, make(vp, rcpt));
      expect(res.response ?? "").not.toContain("only takes delivery and complaint reports");
      expect(res.ok).toBe(true);
      expect(await outcomeOf(rcpt)).toBeDefined();
      expect(Boolean(await t.app.suppressions.get("example.com", "bounces", rcpt))).toBe(suppresses);
    });
  }
});
