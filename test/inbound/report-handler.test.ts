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
