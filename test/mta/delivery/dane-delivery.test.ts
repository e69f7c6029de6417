// Outbound DANE end to end, with real parts only: the signed chain of dane-world.ts (NSD, a
// validating and a non-validating unbound), SMTP sinks on 127.42.x.y:25 with their own
// certificates, and the real app delivering through [mta] dns_servers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import { startDaneWorld, type DaneWorld } from "../../helpers/dane-world.ts";
import { issued, selfSigned, sha256, testCa, tlsaText } from "../../helpers/dane-certs.ts";
import { until } from "../../helpers/tls-setup.ts";
import { createSystemResolver } from "../../../src/dns.ts";
import type { MessageEvent, Principal } from "../../../src/core/model.ts";
import { destinationView } from "../../../src/mta/queue/destination-view.ts";
import { dayOf } from "../../../src/mta/tls-report/report.ts";
import { gunzipSync } from "node:zlib";

const NET = `127.42.${1 + Math.floor(Math.random() * 250)}`;
const CASES = ["ee", "bad", "ta", "bogus", "plain", "slow", "pkix"] as const;
const addr = (c: (typeof CASES)[number]) => `${NET}.${CASES.indexOf(c) + 1}`;

/** TLS-RPT reports of ee. and bad.dane.test go by mail to the unsigned zone's sink. */
const RUA = "v=TLSRPTv1; rua=mailto:reports@plain.test";
const certDir = mkdtempSync(join(tmpdir(), "postern-dane-"));
let world: DaneWorld;
const sinks = {} as Record<(typeof CASES)[number], Sink>;

beforeAll(async () => {
  const ee = selfSigned(certDir, "ee", "anything.invalid"); // DANE-EE: the name does not matter
  const stranger = selfSigned(certDir, "stranger", "mx-bad.dane.test");
  const ca = testCa(certDir, "ca");
  const ta = issued(certDir, "ta", "ca", "mx-ta.dane.test");
  world = await startDaneWorld([
    { label: "ee", address: addr("ee"), tlsa: tlsaText(3, 1, 1, sha256(ee.spki)), tlsrpt: RUA },
    { label: "bad", address: addr("bad"), tlsa: tlsaText(3, 1, 1, sha256(ee.spki)), tlsrpt: RUA }, // the sink presents another key
    { label: "ta", address: addr("ta"), tlsa: tlsaText(2, 1, 1, sha256(ca.spki)) },
    { label: "bogus", address: addr("bogus"), tlsa: tlsaText(3, 1, 1, sha256(ee.spki)) }, // its signature is corrupted
    { label: "slow", address: addr("slow") }, // its TLSA name is served by a server that never answers
    { label: "pkix", address: addr("pkix"), tlsa: tlsaText(1, 1, 1, sha256(ca.spki)) }, // PKIX-EE: unusable for SMTP (RFC 7672 §3.1.3)
  ], addr("plain"));
  const tlsOf: Record<string, { key: string; cert: string } | undefined> = {
    ee, bad: stranger, ta: { key: ta.key, cert: ta.cert + ca.cert }, bogus: ee, slow: ee, plain: undefined, pkix: undefined };
  for (const c of CASES) sinks[c] = await startSink({ host: addr(c), port: 25, ...(tlsOf[c] ? { tls: tlsOf[c] } : {}) });
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(sinks).map((s) => s.close()));
  await world?.stop();
  rmSync(certDir, { recursive: true, force: true });
});

async function appOn(resolver: string, mode: string, extra = ""): Promise<TestApp> {
  const t = await makeTestApp({
    toml: `dns_servers = ["${resolver}"]\ndane = "${mode}"\ndnssec_broken_probe = "broken.test"\n${extra}`,
    resolver: createSystemResolver([resolver]),
  });
  await t.app.mta.dane.probe();
  await t.app.mta.scheduler.start();
  return t;
}

async function send(t: TestApp, to: string[]) {
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: to.map((email) => ({ to: [{ email }], subject: "dane", text: "t" })) });
}

/** The part of `type` in a multipart message: its filename and decoded base64 body (mailparser does not run under Bun). */
function attachmentOf(raw: string, type: string): { filename: string; content: Buffer } {
  const boundary = /boundary="([^"]+)"/.exec(raw)![1]!;
  const part = raw.split(`--${boundary}`).find((p) => p.includes(`Content-Type: ${type}`))!;
  const [head, ...body] = part.split(/\r?\n\r?\n/);
  return { filename: /filename="([^"]+)"/.exec(head!)![1]!, content: Buffer.from(body.join("").replace(/\s+/g, ""), "base64") };
}

const eventsOf = async (t: TestApp, email: string): Promise<MessageEvent[]> =>
  t.app.store.zone("us").searchEvents({ recipient: email, limit: 50, ascending: true });
const firstOf = async (t: TestApp, email: string, type: string) =>
  until(`${type} for ${email}`, async () => (await eventsOf(t, email)).find((e) => e.type === type), (e) => e !== undefined, 30);

describe("DANE with a validating resolver (auto)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appOn(world.validating, "auto", "tls_reports = true\n");
    await send(t, CASES.map((c) => (c === "plain" ? "rcpt@plain.test" : `rcpt@${c}.dane.test`)));
  }, 30_000);
  afterAll(async () => { await t?.close(); });

  test("the probe finds the resolver validating: DANE on, and /healthz says so", async () => {
    expect(t.app.mta.dane.health()).toEqual({ mode: "auto", state: "on", reason: expect.stringContaining("AD") });
    const health = await (await t.app.http(new Request("http://127.0.0.1/healthz"), "127.0.0.1")).json() as { dane: unknown };
    expect(health.dane).toEqual({ mode: "auto", state: "on", reason: expect.any(String) });
  });

  test("a matching 3 1 1 record: delivered, verified", async () => {
    const e = await firstOf(t, "rcpt@ee.dane.test", "delivered");
    expect(e!.tls).toEqual({ version: expect.stringMatching(/^TLSv1\.[23]$/), cipher: expect.any(String), dane: "verified" });
    expect(sinks.ee.messages[0]!.session.secure).toBe(true);
  });

  test("a 2 1 1 record for the issuing CA: delivered, verified", async () => {
    const e = await firstOf(t, "rcpt@ta.dane.test", "delivered");
    expect(e!.tls).toMatchObject({ dane: "verified" });
  });

  test("a wrong 3 1 1 record: deferred, the reason names DANE, never delivered in clear", async () => {
    const e = await firstOf(t, "rcpt@bad.dane.test", "deferred");
    expect(e!.description).toContain("DANE verification failed for mx-bad.dane.test");
    expect(e!.tls).toMatchObject({ dane: "failed" });
    expect(sinks.bad.messages).toHaveLength(0);
  });

  test("a bogus TLSA signature: deferred, never attempted", async () => {
    const e = await firstOf(t, "rcpt@bogus.dane.test", "deferred");
    expect(e!.description).toMatch(/DANE: the TLSA look-up for mx-bogus\.dane\.test is bogus/);
    expect(sinks.bogus.connections).toBe(0);
  });

  test("a TLSA query that times out: deferred, never attempted", async () => {
    const e = await firstOf(t, "rcpt@slow.dane.test", "deferred");
    expect(e!.description).toMatch(/DANE: the TLSA look-up for mx-slow\.dane\.test (failed|is bogus)/);
    expect(sinks.slow.connections).toBe(0);
  }, 40_000);

  test("queue destinations shows the TLS policy in force per MX", async () => {
    const view = () => destinationView({ store: t.app.store, shaping: t.app.mta.shaping, routes: {}, now: () => Date.now() });
    const mx = await until("published TLS policies", async () => (await view()).flatMap((d) => d.mx), (m) => m.length >= 3, 20);
    expect(mx).toEqual(expect.arrayContaining([{ host: "mx-ee.dane.test", tls_policy: "dane" }, { host: "mx-bad.dane.test", tls_policy: "dane" },
      { host: "mx.plain.test", tls_policy: "opportunistic" }]));
  }, 30_000);

  test("tls-rpt: the day's report goes by mail to the address _smtp._tls names, gzip'd JSON in the RFC 8460 shape", async () => {
    await firstOf(t, "rcpt@bad.dane.test", "deferred");
    await firstOf(t, "rcpt@ee.dane.test", "delivered");
    const before = sinks.plain.messages.length;
    const sent = await t.app.tlsReporter!.sendDay(dayOf(Date.now()));
    expect(sent).toEqual(expect.arrayContaining([{ domain: "ee.dane.test", to: "mailto:reports@plain.test", ok: true },
      { domain: "bad.dane.test", to: "mailto:reports@plain.test", ok: true }]));
    const mails = (await sinks.plain.waitFor(before + 2, 20_000)).slice(before).map((m) => m.raw.toString());
    const reports = await Promise.all(mails.map(async (raw) => {
      expect(raw).toMatch(/^TLS-Report-Submitter: mta\.test\r?$/m);
      expect(raw).toMatch(/Content-Type: multipart\/report; report-type="tlsrpt"/);
      const gz = attachmentOf(raw, "application/tlsrpt+gzip");
      expect(gz.filename).toMatch(/^mta\.test!(ee|bad)\.dane\.test!\d+!\d+![A-Za-z0-9]+\.json\.gz$/); // RFC 8460 §5.3 unique-id
      return JSON.parse(gunzipSync(gz.content).toString()) as { policies: { policy: Record<string, unknown>; summary: Record<string, number>; "failure-details": unknown[] }[] };
    }));
    const ee = reports.flatMap((r) => r.policies).find((p) => p.policy["policy-domain"] === "ee.dane.test")!;
    expect(ee.policy).toMatchObject({ "policy-type": "tlsa", "mx-host": ["mx-ee.dane.test"] });
    expect(ee.summary["total-successful-session-count"]).toBeGreaterThanOrEqual(1);
    const bad = reports.flatMap((r) => r.policies).find((p) => p.policy["policy-domain"] === "bad.dane.test")!;
    expect(bad.summary).toMatchObject({ "total-successful-session-count": 0 });
    // RFC 8460 §4.3: the failed session's two ends, the MX address connected to and the local address it came from.
    expect(bad["failure-details"]).toContainEqual(expect.objectContaining({ "result-type": "validation-failure", "receiving-mx-hostname": "mx-bad.dane.test",
      "receiving-ip": addr("bad"), "sending-mta-ip": expect.stringMatching(/^127\./) }));
  }, 40_000);

  test("only unusable TLSA records (usage 1): as if none, delivered with opportunistic TLS", async () => {
    const e = await firstOf(t, "rcpt@pkix.dane.test", "delivered");
    expect(e!.tls).toMatchObject({ dane: "none" });
  });

  test("an unsigned zone: delivered with opportunistic TLS, no DANE", async () => {
    const e = await firstOf(t, "rcpt@plain.test", "delivered");
    expect(e!.tls).toMatchObject({ dane: "none" });
    expect((await eventsOf(t, "rcpt@plain.test")).some((x) => x.type === "deferred")).toBe(false);
  });
});

describe("a resolver that does not validate", () => {
  test("auto: DANE off with the reason, and mail flows (even to a host whose TLSA would not match)", async () => {
    const t = await appOn(world.plain, "auto");
    try {
      expect(t.app.mta.dane.health()).toEqual({ mode: "auto", state: "off", reason: expect.stringContaining("without AD") });
      const before = sinks.bad.messages.length;
      await send(t, ["other@bad.dane.test"]);
      const e = await firstOf(t, "other@bad.dane.test", "delivered");
      expect(e!.tls).toMatchObject({ dane: "none" });
      expect(sinks.bad.messages.length).toBe(before + 1);
    } finally { await t.close(); }
  }, 30_000);

  test("on: DANE stays on, /healthz gives the probe's failure, and without AD mail goes opportunistic", async () => {
    const t = await appOn(world.plain, "on");
    try {
      expect(t.app.mta.dane.health()).toEqual({ mode: "on", state: "on", reason: expect.stringContaining("opportunistic") });
      await send(t, ["third@ee.dane.test"]);
      expect((await firstOf(t, "third@ee.dane.test", "delivered"))!.tls).toMatchObject({ dane: "none" });
    } finally { await t.close(); }
  }, 30_000);
});
