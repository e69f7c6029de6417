// The gauge rules on a real started app: a certificate (made with openssl, 10 days left) served
// from [tls] files fires the certificate rule; a message the sink keeps deferring fires queue_age
// once the fake clock is past two hours, and nothing before; mail scheduled ahead is not late.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { ACCOUNT_ID } from "../../src/core/account.ts";

setDefaultTimeout(60_000);
const H = 3_600_000;
let clock = Date.now();
let sink: Sink;
let t: TestApp;
const certDir = mkdtempSync(join(tmpdir(), "postern-alerts-cert-"));

beforeAll(async () => {
  const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "10",
    "-subj", "/CN=mail.example.test", "-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem")]);
  expect(made.exitCode).toBe(0);
  sink = await startSink({ script: (rcpt) => (rcpt.startsWith("slow") ? { code: 451, message: "4.7.1 Try again later" } : null) });
  t = await makeTestApp({ now: () => clock, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[tls]\nhostnames = ["mail.example.test"]\n` +
    `cert_file = "${join(certDir, "cert.pem")}"\nkey_file = "${join(certDir, "key.pem")}"\n` });
  await t.app.start();
});
afterAll(async () => { await t.close(); await sink.close(); rmSync(certDir, { recursive: true, force: true }); });

test("a certificate with 10 days left fires the certificate rule (value in days, threshold 14)", async () => {
  const notices = (await t.app.alerts.tick()).filter((n) => n.rule === "certificate");
  expect(notices).toMatchObject([{ state: "firing", subject: "mail.example.test", threshold: 14 }]);
  expect(notices[0]!.value).toBeGreaterThan(9.9);
  expect(notices[0]!.value).toBeLessThan(10.1);
});

test("the oldest queued message fires queue_age after two hours, not before; mail scheduled two days ahead is not late", async () => {
  // Scheduled first: it waits in the queue all along, but counts only from when it is due.
  await t.app.sender.send({ accountId: ACCOUNT_ID, keyId: "t", kind: "account", domain: null, grants: [] },
    { domain: "example.com", source: "native", from: { email: "a@example.com" }, envelopes: [{ to: [{ email: "later@dest.test" }], subject: "s", text: "t", sendAt: clock + 48 * H }] });
  clock += 3 * H;
  expect((await t.app.alerts.tick()).filter((n) => n.rule === "queue_age")).toEqual([]);
  await t.app.sender.send({ accountId: ACCOUNT_ID, keyId: "t", kind: "account", domain: null, grants: [] },
    { domain: "example.com", source: "native", from: { email: "a@example.com" }, envelopes: [{ to: [{ email: "slow@dest.test" }], subject: "s", text: "t" }] });
  // The sink answers 451 at RCPT: the message stays waiting (queued, then deferred).
  clock += H;
  expect((await t.app.alerts.tick()).filter((n) => n.rule === "queue_age")).toEqual([]);
  clock += H + 60_000;
  expect((await t.app.alerts.tick()).filter((n) => n.rule === "queue_age")).toMatchObject([{ state: "firing", subject: "queue", value: 7260, threshold: 7200 }]);
});
