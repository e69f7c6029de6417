// The alerts against a real app: mail through the real MTA to a local SMTP sink that refuses some
// recipients (550 5.1.1), the events recorded by the real recorder, a fake clock for the hour
// windows. Each notice goes to a local HTTP receiver (signature checked with the account's key) and
// as mail through postern itself to the sink. A restarted app neither fires again nor forgets.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { hmacVerify } from "../../src/webhooks/signing.ts";
import { ACCOUNT_ID } from "../../src/core/account.ts";
import type { Principal } from "../../src/core/model.ts";

setDefaultTimeout(60_000);
const H = 3_600_000;
let clock = Date.now();
let sink: Sink;
let t: TestApp;
let receiver: ReturnType<typeof Bun.serve>;
const posted: any[] = [];
const dir = mkdtempSync(join(tmpdir(), "postern-alerts-"));
const principal: Principal = { accountId: ACCOUNT_ID, keyId: "test", kind: "account", domain: null, grants: [] };

const open = (d = dir) => makeTestApp({ dir: d, keepDir: true, now: () => clock,
  toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = true\n[alerts]\nwebhook = "http://127.0.0.1:${receiver.port}/hook"\nemail = ["ops@ops.test"]\n` });

beforeAll(async () => {
  sink = await startSink({ script: (rcpt) => (rcpt.startsWith("bad") ? { code: 550, message: "5.1.1 User unknown" }
    : rcpt.startsWith("blocked") ? { code: 554, message: "5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org" } : null) });
  receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => { posted.push(await req.json()); return new Response("ok"); } });
  t = await open();
  await t.app.mta.scheduler.start();
});
afterAll(async () => { await t.close(); await sink.close(); receiver.stop(true); rmSync(dir, { recursive: true, force: true }); });

/** Sends `n` messages from `domain`, `bad` of them to recipients refused with `kind`, and waits until every outcome is recorded. */
async function stream(n: number, bad: number, domain = "example.com", kind = "bad") {
  const tag = Math.random().toString(36).slice(2, 8);
  const before = await outcomes(domain);
  for (let i = 0; i < n; i++) {
    const to = `${i < bad ? kind : "ok"}${i}-${tag}@dest.test`;
    await t.app.sender.send(principal, { domain, source: "native", from: { email: `news@${domain}` }, envelopes: [{ to: [{ email: to }], subject: "s", text: "t" }] });
  }
  for (let i = 0; i < 400 && (await outcomes(domain)) < before + n; i++) await Bun.sleep(50);
  expect(await outcomes(domain)).toBe(before + n);
}
async function outcomes(domain: string) {
  const facts = await t.app.activity.statFacts(domain, { begin: 0, end: clock + H });
  // Alert mail (tagged postern-alert) goes out through example.com too: not part of the stream.
  return facts.filter((f) => !f.tags.includes("postern-alert") && (f.key.type === "delivered" || (f.key.type === "failed" && !f.key.temporary)))
    .reduce((s, f) => s + f.n, 0);
}
const mine = (notices: { rule: string; subject: string }[]) => notices.filter((n) => n.rule === "hard_bounce_rate" && n.subject === "example.com");

test("10 % hard bounces over 20 messages fire nothing; over 120 messages the hard-bounce rule fires once", async () => {
  await stream(20, 2);
  expect(mine(await t.app.alerts.tick())).toEqual([]);
  await stream(100, 10);
  const fired = mine(await t.app.alerts.tick());
  expect(fired).toMatchObject([{ rule: "hard_bounce_rate", state: "firing", subject: "example.com", value: 0.1, threshold: 0.05 }]);
  expect(mine(await t.app.alerts.tick())).toEqual([]);
  expect((await t.app.alerts.incidents(true)).map((i) => [i.rule, i.subject, i.state])).toEqual([["hard_bounce_rate", "example.com", "firing"]]);
});

test("the webhook gets the alert signed with the account's webhook signing key; the mail goes out through postern", async () => {
  await t.app.alerts.settled();
  const body = posted.find((p) => p.alert.rule === "hard_bounce_rate");
  expect(Object.keys(body).sort()).toEqual(["alert", "signature"]);
  expect(Object.keys(body.alert).sort()).toEqual(["at", "id", "rule", "state", "subject", "threshold", "value"].sort());
  expect(body.alert).toMatchObject({ rule: "hard_bounce_rate", state: "firing", subject: "example.com", value: 0.1, threshold: 0.05 });
  const key = (await t.app.store.control.getAccount())!.webhookSigningKey;
  expect(hmacVerify(key, body.signature)).toBe(true);
  expect(hmacVerify("another key", body.signature)).toBe(false);
  for (let i = 0; i < 200 && !sink.messages.some((m) => m.to.includes("ops@ops.test")); i++) await Bun.sleep(50);
  const mail = sink.messages.find((m) => m.to.includes("ops@ops.test"))!;
  expect(mail.raw.toString()).toMatch(/^From: "?postern alerts"? <postern@example\.com>/m);
  expect(mail.raw.toString()).toMatch(/Subject: \[postern\] hard_bounce_rate firing for example\.com: 10\.00 %/);
});

test("still over a day later: one reminder with the same id; then an hour back under resolves it", async () => {
  const firstId = posted.find((p) => p.alert.rule === "hard_bounce_rate").alert.id;
  clock += 24 * H;
  await stream(100, 10);
  expect(mine(await t.app.alerts.tick())).toMatchObject([{ state: "reminder", id: firstId }]);
  clock += H + 60_000; // the window holds no mail now: under, but not for an hour yet
  expect(mine(await t.app.alerts.tick())).toEqual([]);
  clock += 30 * 60_000;
  expect(mine(await t.app.alerts.tick())).toEqual([]);
  clock += 30 * 60_000;
  expect(mine(await t.app.alerts.tick())).toMatchObject([{ state: "resolved", id: firstId }]);
  await t.app.alerts.settled();
  expect(posted.filter((p) => p.alert.rule === "hard_bounce_rate").map((p) => p.alert.state)).toEqual(["firing", "reminder", "resolved"]);
});

test("a restart neither fires an open alert again nor forgets it", async () => {
  await stream(100, 10);
  expect(mine(await t.app.alerts.tick())).toMatchObject([{ state: "firing" }]);
  await t.close();
  t = await open();
  await t.app.mta.scheduler.start();
  expect(mine(await t.app.alerts.tick())).toEqual([]);
  expect((await t.app.alerts.incidents(true)).map((i) => i.rule)).toContain("hard_bounce_rate");
});

test("observe(): a listing fires the blocklist rule once; a reported clear resolves it at once, a rate resolves after an hour", async () => {
  const at = clock;
  const listed = { rule: "blocklist", subject: "192.0.2.10", firing: true };
  expect(await t.app.alerts.observe({ ...listed, at })).toMatchObject([{ rule: "blocklist", state: "firing", subject: "192.0.2.10", value: 1, threshold: 0 }]);
  expect(await t.app.alerts.observe({ ...listed, at: at + 60_000 })).toEqual([]);
  // A delisting is a stated end, not a dip under a threshold: resolved at once.
  expect(await t.app.alerts.observe({ ...listed, firing: false, at: at + 120_000 })).toMatchObject([{ rule: "blocklist", state: "resolved", subject: "192.0.2.10" }]);
  // Compared with a threshold (no `firing`), going back under waits the hour like a rate.
  const pending = { rule: "dkim_pending", subject: "s9._domainkey.example.com" };
  expect(await t.app.alerts.observe({ ...pending, value: 50, at })).toMatchObject([{ state: "firing" }]);
  expect(await t.app.alerts.observe({ ...pending, value: 1, at: at + 60_000 })).toEqual([]);
});

test("observe() without `firing` compares the value with each rule's threshold (dkim_pending: 48 h)", async () => {
  expect(await t.app.alerts.observe({ rule: "dkim_pending", subject: "s2._domainkey.example.com", value: 30 })).toEqual([]);
  expect(await t.app.alerts.observe({ rule: "dkim_pending", subject: "s2._domainkey.example.com", value: 49 }))
    .toMatchObject([{ rule: "dkim_pending", state: "firing", value: 49, threshold: 48 }]);
});

test("11 % block bounces fire the block rule for that domain only; its hard-bounce rule stays quiet", async () => {
  await t.app.domains.add("blocks.test");
  await t.app.domains.verify("blocks.test", true);
  await stream(100, 11, "blocks.test", "blocked");
  const notices = (await t.app.alerts.tick()).filter((n) => n.subject === "blocks.test");
  expect(notices.map((n) => [n.rule, n.state, n.value, n.threshold])).toEqual([["block_rate", "firing", 0.11, 0.1]]);
});
