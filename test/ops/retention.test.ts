// Retention end to end: a listening app with 5 s windows delivers 30 messages to a local sink; the
// sweeper deletes them and their events (gone from Mailgun's events API, `postern events` and the
// message reads) while a send loop goes on; suppressions stay; stats (the Mailgun surface and
// `postern stats`) keep their counts. Plus the sweeper's own behaviour over a real store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startHarness, type SendgridHarness } from "../api/sendgrid/setup.ts";
import { createRetentionSweeper } from "../../src/ops/retention.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { newId } from "../../src/core/ids.ts";
import { createLogger } from "../../src/log.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const FROM = { email: "sender@example.com" };

describe("retention with 5 s windows", () => {
  let h: SendgridHarness;
  beforeAll(async () => {
    h = await startHarness({ toml: `[retention]\nevents = "5s"\nmessages = "5s"\ninbound = "5s"` });
  });
  afterAll(async () => { await h.close(); });

  const cli = (...args: string[]) => {
    const r = Bun.spawnSync(["bun", MAIN, "--config", join(h.t.dir, "postern.toml"), "--json", ...args]);
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    return JSON.parse(r.stdout.toString());
  };
  const mailgunEvents = async (): Promise<{ recipient: string }[]> => {
    const res = await fetch(`${h.base}v3/example.com/events?limit=300`, { headers: { authorization: `Basic ${btoa(`api:${h.t.accountKey}`)}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: { recipient: string }[] }).items;
  };
  const counts = async () => {
    const totals: Record<string, number> = {};
    for (const c of await h.t.app.activity.counts("example.com", Date.now() - 86_400_000, Date.now())) totals[c.type] = (totals[c.type] ?? 0) + c.count;
    return totals;
  };
  const isOld = (recipient: string) => recipient.startsWith("old-");

  test("30 delivered messages disappear from the events API and the CLI; suppressions and stats stay; sends go on", async () => {
    for (let i = 0; i < 30; i++) {
      const [res] = await h.mail.send({ from: FROM, to: `old-${i}@dest.test`, subject: `old ${i}`, text: "hello" });
      expect(res.statusCode).toBe(202);
    }
    await h.sink.waitFor(30, 30_000);
    await h.t.app.store.zone("us").addSuppressions([{ domain: "example.com", type: "bounces", address: "gone@dest.test", reason: "550 no", code: "550", scope: null, createdAt: Date.now() }]);
    let before: Record<string, number> = {};
    for (let i = 0; i < 100 && (before.delivered ?? 0) < 30; i++) { before = await counts(); await Bun.sleep(100); }
    expect(before).toMatchObject({ accepted: 30, delivered: 30 });
    expect((await mailgunEvents()).filter((e) => isOld(e.recipient)).length).toBe(60);

    // A send loop runs while the sweeper deletes: every send is accepted.
    let loopSent = 0;
    let stop = false;
    const loop = (async () => {
      while (!stop) {
        const [res] = await h.mail.send({ from: FROM, to: `loop-${loopSent}@dest.test`, subject: "loop", text: "hello" });
        expect(res.statusCode).toBe(202);
        loopSent++;
        await Bun.sleep(100);
      }
    })();
    let left = 60;
    for (let i = 0; i < 600 && left > 0; i++) {
      await Bun.sleep(100);
      left = (await mailgunEvents()).filter((e) => isOld(e.recipient)).length;
    }
    stop = true;
    await loop;
    expect(left).toBe(0);
    expect(loopSent).toBeGreaterThan(0);
    const listed = cli("events", "--domain", "example.com", "--limit", "1000") as { recipient: string }[];
    expect(listed.filter((e) => isOld(e.recipient))).toEqual([]);
    expect(await h.t.app.store.zone("us").getSuppression("example.com", "bounces", "gone@dest.test")).not.toBeNull();

    // Every loop message is delivered; the counts hold the old ones too (30 + the loop's).
    await h.sink.waitFor(30 + loopSent, 30_000);
    let after: Record<string, number> = {};
    for (let i = 0; i < 100 && (after.delivered ?? 0) < 30 + loopSent; i++) { after = await counts(); await Bun.sleep(100); }
    expect(after).toMatchObject({ accepted: 30 + loopSent, delivered: 30 + loopSent });
    expect(cli("stats", "--domain", "example.com")).toMatchObject({ accepted: 30 + loopSent, delivered: 30 + loopSent });
  }, 120_000);
});

describe("the sweeper", () => {
  const quiet = createLogger({ level: "silent" });
  test("deletes in batches with a turn between them, every zone, and leaves what is not old", async () => {
    const store = await openSqliteStore(":memory:", ["us", "eu"]);
    const t0 = 1_800_000_000_000;
    const z = store.zone("eu");
    const events = Array.from({ length: 25 }, (_, i) => ({ id: newId(t0 + i), type: "opened" as const, messageId: "m", recipient: "a@b.test",
      domain: "a.test", timestamp: t0 + i, tags: [], metadata: {} }));
    await z.applyOutcomes([], events, [], t0);
    let now = t0 + 10_000;
    const sweeper = createRetentionSweeper({ zone: (n) => store.zone(n), zoneNames: store.zoneNames, now: () => now, log: quiet,
      windows: { events: 10_000 - 20, messages: 0, inbound: 0 }, batch: 4 });
    // Events before t0 + 20 are older than the window: 20 of 25, in batches of 4.
    expect(await sweeper.sweep()).toEqual({ events: 20, messages: 0, webhookPosts: 0, inbound: 0, audit: 0 });
    expect((await z.searchEvents({ limit: 100 })).length).toBe(5);
    now += 1_000;
    expect(await sweeper.sweep()).toEqual({ events: 5, messages: 0, webhookPosts: 0, inbound: 0, audit: 0 });
    await store.close();
  });

  test("a window of 0 keeps forever; the pass interval follows the shortest window, at most a minute", async () => {
    const store = await openSqliteStore(":memory:", ["us"]);
    await store.zone("us").applyOutcomes([], [{ id: newId(1), type: "opened", messageId: "m", recipient: "a@b.test", domain: "a.test", timestamp: 1, tags: [], metadata: {} }], [], 1);
    const make = (events: number, messages: number) => createRetentionSweeper({ zone: (n) => store.zone(n), zoneNames: store.zoneNames,
      now: () => 1e13, log: quiet, windows: { events, messages, inbound: 0 } });
    expect(await make(0, 0).sweep()).toEqual({ events: 0, messages: 0, webhookPosts: 0, inbound: 0, audit: 0 });
    expect(make(0, 0).intervalMs).toBe(60_000);
    expect(make(30 * 86_400_000, 0).intervalMs).toBe(60_000);
    expect(make(5_000, 30 * 86_400_000).intervalMs).toBe(1_000);
    await store.close();
  });

  test("the audit log expires by its own window ([retention] audit), oldest first, in batches", async () => {
    const store = await openSqliteStore(":memory:", ["us"]);
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 9; i++) await store.control.appendAudit({ at: t0 + i * 1000, actorKind: "cli", actorId: "root", tenant: 0, action: "key.create", target: `k${i}`, ip: "" });
    const sweeper = createRetentionSweeper({ zone: (n) => store.zone(n), zoneNames: store.zoneNames, now: () => t0 + 10_000, log: quiet,
      windows: { events: 0, messages: 0, inbound: 0, audit: 4_500 }, audit: store.control, batch: 2 });
    // Entries before t0 + 5.5 s are past the window: the first six.
    expect((await sweeper.sweep()).audit).toBe(6);
    expect((await store.control.listAudit({ limit: 10 })).map((e) => e.target)).toEqual(["k8", "k7", "k6"]);
    const forever = createRetentionSweeper({ zone: (n) => store.zone(n), zoneNames: store.zoneNames, now: () => t0 + 1e9, log: quiet,
      windows: { events: 0, messages: 0, inbound: 0, audit: 0 }, audit: store.control });
    expect((await forever.sweep()).audit).toBe(0);
    await store.close();
  });
});
