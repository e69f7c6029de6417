// Bot-detection memory is the zone's, not the process's: two app instances on one store (a WAL
// SQLite directory, or one PostgreSQL database, as two nodes of a zone) see each other's honeypot
// hits. A visitor hits the honeypot link at instance A; its click at instance B a minute after
// the send is a bot (a person's click from elsewhere at the same time is not).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";
import { startDnsmasq } from "../helpers/dnsmasq.ts";
import { createSystemResolver } from "../../src/dns.ts";
import { createBotDetector, type BotDetector } from "../../src/tracking/bot-detector.ts";
import { createSocket } from "node:dgram";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); });

async function twoInstances(storageToml: string): Promise<{ a: TestApp; b: TestApp; skew: (ms: number) => void; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "postern-bot-shared-"));
  let skewMs = 0;
  const now = () => Date.now() + skewMs;
  const a = await makeTestApp({ dir, keepDir: true, now, toml: storageToml });
  const b = await makeTestApp({ dir, keepDir: true, now, toml: storageToml });
  return { a, b, skew: (ms) => { skewMs += ms; },
    async close() { await b.close(); await a.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** A detector over a fresh app's store (no DNS needed), on a clock the test moves by `clock.now`. */
async function withDetector(run: (detector: BotDetector, clock: { now: number }, t: TestApp) => Promise<void>) {
  const t = await makeTestApp({});
  try {
    const clock = { now: Date.now() };
    await run(createBotDetector({ resolver: createSystemResolver(["127.0.0.1"]), now: () => clock.now, store: t.app.store }), clock, t);
  } finally {
    await t.close();
  }
}

async function honeypotSeenByThePeer(storageToml: string) {
  const { a, b, skew, close } = await twoInstances(storageToml);
  try {
    const principal = (await a.app.access.authenticate(a.domainKey))!;
    await a.app.sender.send(principal, { domain: "example.com", source: "native", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "reader@dest.test" }], subject: "s", text: "x" }] });
    const rcpt = (await a.app.store.zone("us").listQueue(10)).find((r) => r.email === "reader@dest.test")!;
    const click = `/t/c/${b.app.codec.sign({ kind: "click", messageId: rcpt.messageId, recipientId: rcpt.id, domain: "example.com", url: "https://shop.example/" })}`;
    const get = (app: TestApp, path: string, ip: string) => app.app.http(new Request(`http://127.0.0.1${path}`, { headers: { "user-agent": CHROME } }), ip);
    skew(60_000);
    expect((await get(b, click, "198.51.100.20")).status).toBe(302);
    // The hidden link of another message: the visitor is remembered (ip and UA), and this message's own
    // pattern is left alone (a hit on its own hidden link would count as one of its links).
    expect((await get(a, `/example.com/another-message/hclick`, "203.0.113.77")).status).toBe(200);
    expect((await get(b, click, "203.0.113.77")).status).toBe(302);
    // A click is recorded after its redirect is answered.
    const clicked = async () => (await b.app.activity.events("example.com", { recipient: "reader@dest.test", limit: 10, ascending: true })).filter((e) => e.type === "clicked");
    for (let i = 0; i < 100 && (await clicked()).length < 2; i++) await Bun.sleep(20);
    // Two clicks in one millisecond list in either order: compare them by visitor.
    const clicks = (await clicked()).sort((x, y) => String(x.ip).localeCompare(String(y.ip)));
    expect(clicks.map((e) => [e.ip, e.isBot])).toEqual([["198.51.100.20", false], ["203.0.113.77", true]]);
    expect(clicks[1]!.botReasons).toContain("honeypot:same-ip-ua");
  } finally {
    await close();
  }
}

describe("bot-detection memory shared by the instances of a zone", () => {
  test("WAL SQLite: a honeypot hit at one instance marks the visitor at the other", () => honeypotSeenByThePeer(""), 30_000);
  test.skipIf(pg === null)("PostgreSQL: a honeypot hit at one node marks the visitor at the other", async () => {
    await honeypotSeenByThePeer(`[storage]\nengine = "postgres"\npostgres_url = "${await pg!.createDatabase("bot")}"\n`);
  }, 30_000);
});

// One pattern per client (issue #38): a scanner's burst over a message's links does not make the
// person who clicks that message a few seconds later a bot, through the zone's store.
describe("a message's pattern is kept per client", () => {
  test("a scanner's burst is a bot; the person's click on the same message seconds later is not", () => withDetector(async (detector, clock) => {
    const click = (ip: string, userAgent: string, linkId: string) => detector.classify({ zone: "us", ip, userAgent,
      action: "click", messageId: "m-pattern", recipientId: "r1", linkId, at: clock.now, deliveredAt: clock.now - 3_600_000 });
    const SCANNER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/135.0.0.0 Safari/537.36";
    let last = await click("192.0.2.10", SCANNER, "a");
    for (const link of ["b", "c"]) { clock.now += 400; last = await click("192.0.2.11", SCANNER, link); }
    expect(last).toMatchObject({ isBot: true, reasons: expect.arrayContaining(["pattern:links-in-one-second"]) });
    clock.now += 3_000;
    expect((await click("198.51.100.30", CHROME, "b")).isBot).toBe(false);
  }));
});

// A caller's batch of the bot API may replay interactions of weeks ago: the memory is pruned back from the
// interactions' own time, not the wall clock, so their windows still hold the rows they need.
describe("interactions timed in the past", () => {
  test("a burst of a week ago stays a burst when the memory is pruned in the middle of it", () => withDetector(async (detector, clock) => {
    const weekAgo = clock.now - 7 * 86_400_000;
    const click = (messageId: string, linkId: string, at: number) => detector.classify({ zone: "us", ip: "192.0.2.40", userAgent: CHROME,
      action: "click", messageId, recipientId: "r1", linkId, at, deliveredAt: at - 60_000 });
    expect((await click("m-old", "a", weekAgo)).isBot).toBe(false);
    // Enough other messages' clicks for the memory to prune itself (every 256 writes), within the same second.
    for (let i = 0; i < 300; i++) await click(`m-other-${i}`, "x", weekAgo + i);
    expect(await click("m-old", "b", weekAgo + 900)).toMatchObject({ isBot: true, reasons: expect.arrayContaining(["pattern:links-in-one-second"]) });
  }));
});

// The MX prior end to end: the detector looks the recipient domain's MX up in real DNS (dnsmasq);
// a click from AWS space 20 s after delivery is the gateway's sandbox only behind a gateway.
describe("the recipient's MX as a prior for clicks", () => {
  test("an AWS click within seconds is a bot behind Proofpoint, a person behind a plain MX", async () => {
    const dns = await startDnsmasq([
      { type: "MX", name: "behind-gateway.test", value: "mx0a-00123456.pphosted.com", priority: 10 },
      { type: "MX", name: "plain.test", value: "mx.plain.test", priority: 10 },
    ]);
    const t = await makeTestApp({});
    try {
      const now = Date.now();
      const detector = createBotDetector({ resolver: createSystemResolver([dns.server]), now: () => now, store: t.app.store });
      const click = (domain: string, seconds: number) => detector.classify({ zone: "us", ip: "35.156.8.243", userAgent: CHROME,
        action: "click", domain, messageId: `m-${domain}-${seconds}`, recipientId: "r1", linkId: "l1", at: now, deliveredAt: now - seconds * 1000 });
      expect(await click("behind-gateway.test", 20)).toMatchObject({ isBot: true, family: "proofpoint", reasons: expect.arrayContaining(["timing:gateway-scan"]) });
      expect((await click("plain.test", 20)).isBot).toBe(false);
      expect((await click("behind-gateway.test", 600)).isBot).toBe(false);
    } finally {
      await t.close();
      await dns.stop();
    }
  }, 30_000);
});

// A bot-API batch looks its recipient domains' MX up together first, then judges its events one at a
// time from the cache: a prefetched MX still counts after the DNS server is gone.
describe("MX looked up ahead for a batch", () => {
  test("prefetchMx fills the cache the batch's events are judged from", async () => {
    const dns = await startDnsmasq([{ type: "MX", name: "prefetched.test", value: "mx0b-00123456.pphosted.com", priority: 10 }]);
    const t = await makeTestApp({});
    try {
      const now = Date.now();
      const detector = createBotDetector({ resolver: createSystemResolver([dns.server], { timeoutMs: 300 }), now: () => now, store: t.app.store });
      await detector.prefetchMx(["prefetched.test", "prefetched.test", ""]);
      await dns.stop();
      const verdict = await detector.classify({ zone: "us", ip: "35.156.8.243", userAgent: CHROME, action: "click", domain: "prefetched.test",
        messageId: "m-prefetch", recipientId: "r1", linkId: "l1", at: now, deliveredAt: now - 20_000 });
      expect(verdict).toMatchObject({ isBot: true, family: "proofpoint" });
    } finally {
      await t.close();
      await dns.stop().catch(() => {});
    }
  }, 30_000);
});

/** A DNS server that answers late: each query is passed to `upstream` (dnsmasq) after `delayMs`, its answer relayed back. */
async function lateDns(upstream: number, delayMs: number): Promise<{ server: string; close: () => void }> {
  const front = createSocket("udp4");
  const back = createSocket("udp4");
  const askers = new Map<number, { port: number; address: string }>();
  front.on("message", (query, from) => {
    askers.set(query.readUInt16BE(0), from);
    setTimeout(() => back.send(query, upstream, "127.0.0.1"), delayMs);
  });
  back.on("message", (answer) => {
    const to = askers.get(answer.readUInt16BE(0));
    if (to) front.send(answer, to.port, to.address);
  });
  await new Promise<void>((r) => front.bind(0, "127.0.0.1", r));
  await new Promise<void>((r) => back.bind(0, "127.0.0.1", r));
  return { server: `127.0.0.1:${front.address().port}`, close: () => { front.close(); back.close(); } };
}

// A slow answer is not "no MX" for an hour: the click that waited is judged without it, the look-up goes on, and the
// domain's clicks after the answer have it. While it is overdue, other clicks of the domain do not wait for it too.
describe("an MX that answers late", () => {
  test("is used once it arrives, and keeps only the first click waiting", async () => {
    const dns = await startDnsmasq([{ type: "MX", name: "late.test", value: "mx0a-00123456.pphosted.com", priority: 10 }]);
    const late = await lateDns(dns.port, 2_600);
    const t = await makeTestApp({});
    try {
      const now = Date.now();
      const detector = createBotDetector({ resolver: createSystemResolver([late.server], { timeoutMs: 8_000 }), now: () => now, store: t.app.store });
      const click = (n: number) => detector.classify({ zone: "us", ip: "35.156.8.243", userAgent: CHROME, action: "click", domain: "late.test",
        messageId: `m-late-${n}`, recipientId: "r1", linkId: "l1", at: now, deliveredAt: now - 20_000 });
      expect((await click(1)).isBot).toBe(false); // waited its 2 s; the answer comes at 2.6 s
      expect((await click(2)).isBot).toBe(false); // the look-up is overdue: judged at once, without it
      await Bun.sleep(1_500);
      expect(await click(3)).toMatchObject({ isBot: true, family: "proofpoint", reasons: expect.arrayContaining(["timing:gateway-scan"]) });
    } finally {
      await t.close();
      late.close();
      await dns.stop();
    }
  }, 30_000);
});

// A message's hidden link names no recipient: its hit joins only the visiting client's own patterns of
// the message, never another address's with the same browser.
describe("a hit on the hidden link", () => {
  test("counts as a link for the visitor's click of the message, not for a person's click with the same user agent", () => withDetector(async (detector, clock, t) => {
    await t.app.domains.set("example.com", { botDetection: true });
    await detector.honeypotHit("192.0.2.50", CHROME, "example.com", "m-campaign");
    clock.now += 400;
    const click = (ip: string, recipientId: string) => detector.classify({ zone: "us", ip, userAgent: CHROME, action: "click",
      messageId: "m-campaign", recipientId, linkId: "https://shop.example/", at: clock.now, deliveredAt: clock.now - 60_000 });
    expect((await click("198.51.100.30", "r-person")).isBot).toBe(false);
    expect(await click("192.0.2.50", "r-scanned")).toMatchObject({ isBot: true, reasons: expect.arrayContaining(["pattern:links-in-one-second"]) });
  }));
});

// Across messages, end to end over the zone's store: one (ip, UA) working through recipients of
// several domains is a botnet node from its third recipient; colleagues behind one office NAT
// (one domain) stay people, and so does a second instance's view of the same memory.
describe("one visitor clicking many recipients' mail", () => {
  test("a third recipient of a second domain within 30 minutes is a bot; many of one domain are not", async () => {
    const dns = await startDnsmasq([{ type: "MX", name: "corp.test", value: "mx.corp.test", priority: 10 }]);
    const t = await makeTestApp({});
    try {
      let now = Date.now();
      const detector = createBotDetector({ resolver: createSystemResolver([dns.server]), now: () => now, store: t.app.store });
      const click = (ip: string, n: number, domain: string) => detector.classify({ zone: "us", ip, userAgent: CHROME, action: "click",
        domain, messageId: `m${n}`, recipientId: `r${n}`, linkId: "l1", at: now, deliveredAt: now - 7_200_000 });
      expect((await click("198.51.100.7", 1, "one.test")).isBot).toBe(false);
      now += 40_000;
      expect((await click("198.51.100.7", 2, "two.test")).isBot).toBe(false);
      now += 40_000;
      expect(await click("198.51.100.7", 3, "two.test")).toMatchObject({ isBot: true, family: "botnet",
        reasons: ["across:many-recipients", "across:never-opened"] });
      for (let n = 10; n < 16; n++) expect((await click("192.0.2.80", n, "corp.test")).isBot).toBe(false);
      // An open fetched before the click is remembered (the reason "never-opened" goes).
      await detector.classify({ zone: "us", ip: "192.0.2.1", userAgent: CHROME, action: "open", domain: "three.test", messageId: "m20", recipientId: "r20", at: now });
      for (const [n, d] of [[20, "three.test"], [21, "one.test"]] as const) expect((await click("203.0.113.5", n, d)).isBot).toBe(false);
      expect((await click("203.0.113.5", 22, "one.test")).reasons).toEqual(["across:many-recipients"]);
    } finally {
      await t.close();
      await dns.stop();
    }
  }, 30_000);
});

// Undated interactions (the bot API without message_ts): a message of the sending domain in the
// zone's store dates the click by its accept time, so a Proofpoint-network click 30 s after the
// send is the sandbox; an id the store does not hold, or another domain's message, stays undated.
describe("dating an interaction by the message postern accepted", () => {
  test("a vendor-network click 30 s after accept is a bot; unknown ids stay undated", async () => {
    const t = await makeTestApp({});
    try {
      const principal = (await t.app.access.authenticate(t.domainKey))!;
      await t.app.sender.send(principal, { domain: "example.com", source: "native", from: { email: "a@example.com" },
        envelopes: [{ to: [{ email: "reader@dest.test" }], subject: "s", text: "x" }] });
      const rcpt = (await t.app.store.zone("us").listQueue(10)).find((r) => r.email === "reader@dest.test")!;
      const message = (await t.app.store.zone("us").getMessageHead(rcpt.messageId))!;
      const at = message.createdAt + 30_000;
      const detector = createBotDetector({ resolver: createSystemResolver(["127.0.0.1"]), now: () => at, store: t.app.store });
      const click = (messageId: string, sendingDomain: string) => detector.classify({ zone: "us", ip: "208.84.64.10", userAgent: CHROME,
        action: "click", messageId, recipientId: rcpt.id, linkId: "l1", at, sendingDomain });
      expect(await click(rcpt.messageId, "example.com")).toMatchObject({ isBot: true, family: "proofpoint", reasons: expect.arrayContaining(["timing:delivery-window"]) });
      expect((await click("caller-own-id", "example.com")).reasons).toContain("timing:unknown");
      expect((await click(rcpt.messageId, "other.example")).reasons).toContain("timing:unknown");
    } finally {
      await t.close();
    }
  }, 30_000);
});
