import { afterEach, describe, expect, test } from "bun:test";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type RcptScript, type Sink } from "../../helpers/smtp-sink.ts";
import { dkimpyVerify } from "../../helpers/dkimpy.ts";
import type { Principal } from "../../../src/core/model.ts";

let t: TestApp | null = null;
let sink: Sink | null = null;
afterEach(async () => { await t?.close(); await sink?.close(); t = null; sink = null; });

async function setup(script?: RcptScript) {
  sink = await startSink({ script });
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.mta.scheduler.start();
  return principal;
}

const resolverFor = (t: TestApp) => async (name: string, rr: string) => {
  const keys = await t.app.domains.records("example.com");
  const hit = keys.filter((r) => r.type === rr && r.name === name).map((r) => [r.value]);
  if (!hit.length) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return hit;
};

async function statusOf(t: TestApp, email: string) {
  const events = await t.app.store.zone("us").searchEvents({ recipient: email, limit: 50, ascending: true });
  return events.map((e) => e.type);
}

describe("delivery through a local SMTP sink", () => {
  test("signs with RSA and Ed25519 DKIM that mailauth verifies", async () => {
    const principal = await setup();
    await t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com", name: "News" },
      envelopes: [{ to: [{ email: "rcpt@dest.test" }], subject: "Hello", text: "plain body", html: "<p>html body</p>" }] });
    const [msg] = await sink!.waitFor(1);
    const result = await dkimVerify(msg!.raw, { resolver: resolverFor(t!) as never });
    const verdicts = result.results.map((r) => [r.signingDomain, r.algo, r.status.result]);
    expect(verdicts).toEqual([["example.com", "rsa-sha256", "pass"], ["example.com", "ed25519-sha256", "pass"]]);
    const records = Object.fromEntries((await t!.app.domains.records("example.com")).filter((r) => r.type === "TXT").map((r) => [r.name, r.value]));
    expect(await dkimpyVerify(msg!.raw, records)).toEqual([true, true]);
    expect(msg!.from).toMatch(/^b\+[a-z2-7]+@bounces\.example\.com$/);
    expect(msg!.raw.toString()).toContain("Message-ID: <");
    expect(msg!.session.secure).toBe(true);
  });

  test("a connection's next message is built while it waits for the reply, and is sent signed and whole (#41)", async () => {
    sink = await startSink({ delayMs: 150 });
    // One connection to the destination: each message waits 150 ms for its reply, time enough to build the next.
    t = await makeTestApp({ toml: `max_connections_per_host = 1\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
    await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
      envelopes: [1, 2, 3, 4, 5].map((i) => ({ to: [{ email: `r${i}@dest.test` }], subject: `for r${i}`, text: `body of r${i}` })) });
    await t.app.mta.scheduler.start();
    const msgs = await sink.waitFor(5);
    await t.app.mta.scheduler.drain();
    expect(sink.connections).toBe(1);
    for (const m of msgs) {
      const rcpt = m.to[0]!.split("@")[0]!;
      expect(m.raw.toString()).toContain(`body of ${rcpt}`);
      const result = await dkimVerify(m.raw, { resolver: resolverFor(t) as never });
      expect(result.results.map((r) => r.status.result)).toEqual(["pass", "pass"]);
    }
    expect(t.app.mta.delivery.stats().builtAhead).toBeGreaterThanOrEqual(3);
    expect(t.app.mta.delivery.stats().ahead).toBe(0);
  });

  test("defers on 451 and delivers on the retry", async () => {
    const principal = await setup((_rcpt, n) => (n === 1 ? { code: 451, message: "4.7.1 greylisted, try later" } : null));
    await t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "grey@dest.test" }], subject: "s", text: "t" }] });
    await sink!.waitFor(1, 8000);
    await t!.app.mta.scheduler.drain();
    expect(await statusOf(t!, "grey@dest.test")).toEqual(["accepted", "deferred", "delivered"]);
    const deferred = (await t!.app.store.zone("us").searchEvents({ recipient: "grey@dest.test", types: ["deferred"], limit: 1 }))[0]!;
    expect(deferred.bounceClass).toBe(70); // greylisting: a transient failure
    const delivered = (await t!.app.store.zone("us").searchEvents({ recipient: "grey@dest.test", types: ["delivered"], limit: 1 }))[0]!;
    expect(delivered).toMatchObject({ attempt: 2, tls: { dane: "none" } }); // the sink offers STARTTLS (self-signed): taken opportunistically
  });

  test("fails on 550 and adds the address to the bounce list", async () => {
    const principal = await setup(() => ({ code: 550, message: "5.1.1 no such user" }));
    await t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "gone@dest.test" }], subject: "s", text: "t" }] });
    for (let i = 0; i < 50 && (await statusOf(t!, "gone@dest.test")).length < 2; i++) await Bun.sleep(50);
    await t!.app.mta.scheduler.drain();
    const events = await t!.app.store.zone("us").searchEvents({ recipient: "gone@dest.test", limit: 10, ascending: true });
    expect(events.map((e) => e.type)).toEqual(["accepted", "failed"]);
    expect(events[1]).toMatchObject({ severity: "permanent", code: 550, enhancedCode: "5.1.1", bounceClass: 10 });
    const sup = await t!.app.store.zone("us").getSuppression("example.com", "bounces", "gone@dest.test");
    expect(sup?.code).toBe("550");
    await expect(t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "gone@dest.test" }], subject: "s", text: "t" }] })).resolves.toMatchObject({ accepted: 0 });
  });

  test("a block (554 5.7.1 listed IP) fails without putting the address on the bounce list", async () => {
    const principal = await setup(() => ({ code: 554, message: "5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org" }));
    await t!.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "fine@dest.test" }], subject: "s", text: "t" }] });
    for (let i = 0; i < 50 && (await statusOf(t!, "fine@dest.test")).length < 2; i++) await Bun.sleep(50);
    await t!.app.mta.scheduler.drain();
    const events = await t!.app.store.zone("us").searchEvents({ recipient: "fine@dest.test", limit: 10, ascending: true });
    expect(events.map((e) => [e.type, e.bounceClass])).toEqual([["accepted", undefined], ["failed", 51]]);
    expect(await t!.app.store.zone("us").getSuppression("example.com", "bounces", "fine@dest.test")).toBeNull();
  });

  test("a domain disabled after accept defers its mail instead of sending it", async () => {
    sink = await startSink();
    t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
    await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "later@dest.test" }], subject: "s", text: "t" }] });
    await t.app.domains.disable("example.com");
    await t.app.mta.scheduler.start();
    for (let i = 0; i < 40 && (await statusOf(t, "later@dest.test")).length < 2; i++) await Bun.sleep(50);
    await t.app.mta.scheduler.drain();
    const events = await t.app.store.zone("us").searchEvents({ recipient: "later@dest.test", limit: 10, ascending: true });
    expect(events.map((e) => e.type)).toEqual(["accepted", "deferred"]);
    expect(events[1]!.description).toContain("disabled");
    expect(sink.messages).toHaveLength(0);
  });
});
