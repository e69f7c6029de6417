// Real Exim delivering many DSNs into the inbound listener: postern sends through a private Exim,
// the receiver refuses every recipient, Exim writes a DSN to each VERP return path and its queue
// runner delivers them to the listener, several per connection. Every transaction must be answered.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { findExim, startExim, type Exim } from "../helpers/exim.ts";
import { freePort } from "../helpers/free-port.ts";
import type { Principal } from "../../src/core/model.ts";

const N = Number(process.env.EXIM_DSNS ?? 80);
const found = findExim();
if ("missing" in found) console.log(`skipping the real-Exim DSN test: ${found.missing}`);

let t: TestApp;
let sink: Sink;
let exim: Exim;
let principal: Principal;

describe.skipIf("missing" in found)("Exim's DSNs into the inbound listener", () => {
  beforeAll(async () => {
    sink = await startSink({ script: () => ({ code: 550, message: "5.1.1 The email account that you tried to reach does not exist." }) });
    const eximPort = await freePort();
    t = await makeTestApp({ toml: `[webhooks]\nallow_private = true\n[mta.routes]\n"*" = "127.0.0.1:${eximPort}"\n` });
    const where = await t.app.start();
    const smtpPort = Number(where.smtp!.split(":").pop());
    exim = await startExim((found as { bin: string }).bin, { port: eximPort, routes: { "receiver.test": sink.port, "*": smtpPort }, finalTimeout: "30s", messagesPerConnection: 4 });
    principal = (await t.app.access.authenticate(t.domainKey))!;
  });
  afterAll(async () => { await exim?.stop(); await t?.close(); await sink?.close(); });

  test(`${N} DSNs, several per connection: every end of data answered, none retried`, async () => {
    for (let i = 0; i < N; i++) {
      await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
        envelopes: [{ to: [{ email: `r${i}@receiver.test` }], subject: `hello ${i}`, text: "body" }] });
    }
    for (let i = 0; i < 600 && exim.queued() < N; i++) await Bun.sleep(100);
    expect(exim.queued()).toBe(N);
    await exim.runQueue(); // to the receiver, which refuses each: Exim queues a DSN to each VERP return path
    await exim.runQueue(); // the DSNs, into the inbound listener
    const failed = async () => (await t.app.activity.events("example.com", { types: ["failed"], limit: 1000 })).length;
    for (let i = 0; i < 100 && (await failed()) < N; i++) await Bun.sleep(100);
    const log = exim.mainlog().split("\n");
    const toListener = log.filter((l) => /=> b\+/.test(l));
    // Exim marks a delivery down a connection passed on from the previous message with "*" after the host.
    const reused = toListener.filter((l) => /\]:\d+\*/.test(l) || /\]\*/.test(l));
    // A transaction without a reply is deferred (==) with "Remote host closed connection in response to end of data" or a timeout.
    const unanswered = log.filter((l) => / == /.test(l) || /timeout|no response|closed connection/i.test(l));
    console.log(`exim: ${toListener.length} DSNs delivered (${reused.length} down a reused connection), ${unanswered.length} log lines of unanswered transactions; postern: ${await failed()} recorded`);
    expect(unanswered).toEqual([]);
    expect(toListener.length).toBe(N);
    expect(reused.length).toBeGreaterThan(0);
    expect(exim.queued()).toBe(0);
    expect(await failed()).toBe(N);
  }, 180_000);
});
