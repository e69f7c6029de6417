// The issue #38 targets measured outside-in, through the running product: one seed of the
// independent set replayed into a real app over HTTP, as a sender's ESP and the recipients'
// clients would reach it. Honeypot hits GET /{domain}/{message_id}/hclick when they happen (the
// client's address in X-Forwarded-For, believed from loopback by default); opens and clicks go in
// ESP-style batches to POST /{domain}/bot; the verdicts come back through the webhook outbox to a
// local receiver. The recipients' MX records are served by a real dnsmasq; the app's clock is a
// fake one, moved to each step's time (a batch's last event) and never back.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSystemResolver } from "../../../../src/dns.ts";
import { makeTestApp, type TestApp } from "../../../helpers/app.ts";
import { startDnsmasq, type DnsmasqServer } from "../../../helpers/dnsmasq.ts";
import { startReceiver } from "../../../helpers/receiver.ts";
import { createVerdictLog, eventId, everyNthMessage, mxRecords, steps, toApiEvent } from "./api-replay.ts";
import { generateIndependentSet, INDEPENDENT_SEED } from "./generate.ts";
import { humansCalledBot, precision, recall, report, scoreVerdicts, type Score } from "./score.ts";

const SENDING_DOMAIN = "example.com";
/** 1 = every message of the seed (about 20,000 opens and clicks, 1,100 honeypot hits). */
const EVERY_NTH_MESSAGE = 1;
/** Batches posted but not yet pushed back before the replay waits for the outbox to catch up. */
const MAX_UNPUSHED = 64;
const PUSH_WAIT_MS = 120_000;

const SEED = Number(process.env.BOT_API_SEED ?? INDEPENDENT_SEED);
const events = everyNthMessage(generateIndependentSet(SEED), EVERY_NTH_MESSAGE);
const judged = events.filter((e) => e.kind !== "honeypot");
let clock = events[0]!.atMs;
let dns: DnsmasqServer;
let receiver: ReturnType<typeof startReceiver>;
let t: TestApp;
let base = "";
const refused: string[] = [];
const log = createVerdictLog();
let posted = 0;
let score: Score;

async function until(isDone: () => boolean, what: string, timeoutMs = PUSH_WAIT_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const odd = log.take(receiver.received);
    if (odd.length) refused.push(...odd.map((o) => `not a bot push: ${o}`));
    if (isDone()) return;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}: ${log.verdicts.size} of ${judged.length} verdicts back`);
    await Bun.sleep(10);
  }
}

async function honeypot(e: (typeof events)[number]): Promise<void> {
  const res = await fetch(`${base}/${SENDING_DOMAIN}/${encodeURIComponent(e.messageId)}/hclick`, { headers: { "x-forwarded-for": e.ip, "user-agent": e.userAgent } });
  await res.arrayBuffer();
  if (res.status !== 200) refused.push(`hclick ${e.messageId}: ${res.status}`);
}

async function submit(batch: typeof events): Promise<void> {
  const res = await fetch(`${base}/${SENDING_DOMAIN}/bot`, {
    method: "POST", headers: { "ov-token": t.domainKey, "content-type": "application/json" },
    body: JSON.stringify({ events: batch.map(toApiEvent), webhook_url: receiver.url }),
  });
  const text = await res.text();
  if (res.status !== 200) refused.push(`bot batch of ${batch.length}: ${res.status} ${text.slice(0, 200)}`);
  else posted++;
  // The outbox drains on its own; the replay keeps only a few pushes outstanding so that none
  // waits long on the fake clock (a push is given up after webhooks.lifetime).
  if (posted - log.batches.size > MAX_UNPUSHED) await until(() => posted - log.batches.size <= MAX_UNPUSHED / 4, "the outbox to catch up");
}

async function replay(): Promise<void> {
  for (const step of steps(events)) {
    if (step.kind === "honeypot") {
      clock = Math.max(clock, step.event.atMs);
      await honeypot(step.event);
    } else {
      clock = Math.max(clock, step.events[step.events.length - 1]!.atMs);
      await submit(step.events);
    }
  }
  await until(() => judged.every((e) => log.verdicts.has(eventId(e))), "every verdict");
}

beforeAll(async () => {
  const started = Date.now();
  dns = await startDnsmasq(mxRecords(events));
  receiver = startReceiver();
  t = await makeTestApp({
    now: () => clock, resolver: createSystemResolver([dns.server]),
    // The replay spans six weeks of fake time: no push is given up while the outbox catches up.
    toml: `[webhooks]\nallow_private = true\nlifetime = "90d"\n`,
  });
  await t.app.domains.set(SENDING_DOMAIN, { botDetection: true });
  base = `http://${(await t.app.start()).http}`;
  await replay();
  score = scoreVerdicts(judged.map((e) => ({ event: e, isBot: log.verdicts.get(eventId(e)) === true })));
  console.log(`API path, seed ${SEED}${EVERY_NTH_MESSAGE > 1 ? `, every ${EVERY_NTH_MESSAGE}th message` : ""}: ${judged.length} opens and clicks in ${posted} batches, `
    + `${events.length - judged.length} honeypot hits, ${receiver.received.length} pushes, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(report(score));
  // For a side-by-side with the pure replay (test/fixtures/bots/replay.ts): [event_id, is_bot] pairs.
  if (process.env.DUMP_API_VERDICTS) await Bun.write(process.env.DUMP_API_VERDICTS, JSON.stringify([...log.verdicts]));
}, 600_000);

afterAll(async () => {
  await t?.close();
  receiver?.stop();
  await dns?.stop();
});

describe("bot clicks through the running product's API (issue #38, outside-in)", () => {
  test("every request is answered 200 and every event comes back with a verdict", () => {
    expect(refused).toEqual([]);
    expect(judged.filter((e) => !log.verdicts.has(eventId(e))).length).toBe(0);
  });

  test("the replay holds every family and hard human case", () => {
    for (const f of ["safe-links", "proofpoint", "mimecast", "barracuda", "cisco", "trend-micro", "sophos", "generic-crawler"]) {
      const n = score.families.get(f);
      expect(n ? n.tp + n.fn : 0, f).toBeGreaterThan(20);
    }
    for (const h of ["office-nat", "cloud-desktop", "aws-desktop", "private-relay", "mobile", "isolation", "fast-one-link"]) {
      const n = score.scenarios.get(h);
      expect(n ? n.tn + n.fp : 0, h).toBeGreaterThan(20);
    }
  });

  test("people behind office NAT, on cloud desktops, behind Private Relay and on mobile stay people", () => {
    for (const h of ["office-nat", "cloud-desktop", "private-relay", "mobile"]) {
      const n = score.scenarios.get(h);
      expect(n && humansCalledBot(n), h).toBeLessThanOrEqual(0.005);
    }
  });

  // Default seed 0.9800 / 0.9992 / 0.24% (seeds 1-3 with BOT_API_SEED=n: recall 0.9807, 0.9824, 0.9884, people 0.45, 0.29, 0.30%).
  // Before this session's API changes: recall 0.9145 (every API click one link, a batch one instant).
  test("clicks: recall >= 0.98 at precision >= 0.99, at most 0.5% of people called bot", () => {
    expect(recall(score.all)).toBeGreaterThanOrEqual(0.98);
    expect(precision(score.all)).toBeGreaterThanOrEqual(0.99);
    expect(humansCalledBot(score.all)).toBeLessThanOrEqual(0.005);
  });
});
