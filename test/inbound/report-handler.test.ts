// A receiver's late bounce (a DSN to the VERP return path) names the address the bounced mail went
// out from: the failed event carries the recipient's last source address and pool, so SparkPost's
// out-of-band bounce has `sending_ip` like the synchronous one (docs/egress.md).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { deliveredTo, egressToml, peerFor } from "../helpers/egress.ts";
import type { Principal } from "../../src/core/model.ts";

setDefaultTimeout(60_000);
let t: TestApp;
let sink: Sink;
let smtpPort = 0;
beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n${egressToml()}` });
  smtpPort = Number((await t.app.start()).smtp!.split(":").pop());
});
afterAll(async () => { await t.close(); await sink.close(); });

test("a DSN's failed event carries the source address and pool of the bounced mail", async () => {
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" }, ipPool: "bulk",
    envelopes: [{ to: [{ email: "late@dest.example.org" }], subject: "s", text: "t" }] });
  await deliveredTo(t.app, "late@dest.example.org");
  expect(await peerFor(sink, "late@dest.example.org")).toBe("127.0.0.3");
  const verp = sink.messages.find((m) => m.to.includes("late@dest.example.org"))!.from;
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true });
  await smtp.sendMail({ envelope: { from: "", to: [verp] }, raw: readFileSync(join(import.meta.dir, "../fixtures/bounces/mta/postfix/reply-000.eml")) });
  const zone = t.app.store.zone("us");
  let failed;
  for (let i = 0; i < 200 && !(failed = (await zone.searchEvents({ recipient: "late@dest.example.org", types: ["failed"], limit: 1 }))[0]); i++) await Bun.sleep(50);
  expect(failed).toMatchObject({ type: "failed", severity: "permanent", sendingIp: "127.0.0.3", ipPool: "bulk" });
});

test("a DSN of thousands of groups for our one recipient is one failed event: its first failure, not its delay", async () => {
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: [{ to: [{ email: "many@dest.example.org" }], subject: "s", text: "t" }] });
  await deliveredTo(t.app, "many@dest.example.org");
  const verp = sink.messages.find((m) => m.to.includes("many@dest.example.org"))!.from;
  const group = (action: string, status: string, reply: string, rcpt = "many@dest.example.org") =>
    `Final-Recipient: rfc822; ${rcpt}\r\nAction: ${action}\r\nStatus: ${status}\r\nDiagnostic-Code: smtp; ${reply}\r\n`;
  const groups = [group("delayed", "4.2.2", "452 4.2.2 mailbox full"), group("failed", "5.1.1", "550 5.1.1 user unknown"),
    ...Array.from({ length: 3000 }, (_, i) => group("failed", "5.7.1", "550 5.7.1 blocked", `x${i}@other.example`))];
  const raw = ["From: MAILER-DAEMON@dest.example.org", `To: ${verp}`, "Subject: Undelivered Mail Returned to Sender", "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"', "", "--b", "Content-Type: text/plain", "", "Undeliverable.", "",
    "--b", "Content-Type: message/delivery-status", "", "Reporting-MTA: dns; mx.dest.example.org", "", groups.join("\r\n"), "--b--", ""].join("\r\n");
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true });
  await smtp.sendMail({ envelope: { from: "", to: [verp] }, raw });
  const zone = t.app.store.zone("us");
  const events = () => zone.searchEvents({ recipient: "many@dest.example.org", types: ["failed", "deferred"], limit: 100 });
  for (let i = 0; i < 200 && !(await events()).length; i++) await Bun.sleep(50);
  const found = await events();
  expect(found.map((e) => [e.type, e.enhancedCode])).toEqual([["failed", "5.1.1"]]);
});
