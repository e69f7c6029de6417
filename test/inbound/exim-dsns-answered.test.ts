// Real Exim delivering many DSNs into the inbound listener: postern sends through a private Exim,
// the receiver refuses every recipient, Exim queues a DSN to each VERP return path, and its queue
// run delivers them to the listener four per connection (the last of each with QUIT pipelined after
// its dot and a FIN, as Exim does). Every transaction must be answered: nothing deferred, nothing
// left in Exim's queue, each DSN recorded once. Plain, and over STARTTLS.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { findExim, startExim, type Exim } from "../helpers/exim.ts";
import { freePort } from "../helpers/free-port.ts";
import type { Principal } from "../../src/core/model.ts";

const N = Number(process.env.EXIM_DSNS ?? 80);
const found = findExim();
if ("missing" in found) console.log(`skipping the real-Exim DSN tests: ${found.missing}`);

/** A self-signed certificate for the listener's STARTTLS (Exim tries to verify it and goes on when it cannot). */
function selfSigned(): { cert: string; key: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "exim-tls-"));
  const r = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
    "-subj", "/CN=mta.test", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return { cert: join(dir, "cert.pem"), key: join(dir, "key.pem"), dir };
}

for (const tls of [false, true]) {
  describe.skipIf("missing" in found)(`Exim's DSNs into the inbound listener${tls ? " over STARTTLS" : ""}`, () => {
    let t: TestApp;
    let sink: Sink;
    let exim: Exim;
    let principal: Principal;
    let pair: ReturnType<typeof selfSigned> | null = null;

    beforeAll(async () => {
      sink = await startSink({ script: () => ({ code: 550, message: "5.1.1 The email account that you tried to reach does not exist." }) });
      const eximPort = await freePort();
      pair = tls ? selfSigned() : null;
      t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${eximPort}"\n`,
        smtpToml: pair ? `tls_cert = "${pair.cert}"\ntls_key = "${pair.key}"` : undefined });
      const smtpPort = Number((await t.app.start()).smtp!.split(":").pop());
      exim = await startExim((found as { bin: string }).bin, {
        port: eximPort, routes: { "receiver.test": sink.port, "*": smtpPort }, finalTimeout: "30s", messagesPerConnection: 4, tls,
      });
      principal = (await t.app.access.authenticate(t.domainKey))!;
    });
    afterAll(async () => {
      await exim?.stop();
      await t?.close();
      await sink?.close();
      if (pair) rmSync(pair.dir, { recursive: true, force: true });
    });

    test(`${N} DSNs, four per connection: every end of data answered, none retried`, async () => {
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
      // A transaction without a reply is deferred (==): "Remote host closed connection in response to end of data", or a timeout.
      const unanswered = log.filter((l) => / == /.test(l) || /timeout|no response|closed connection/i.test(l));
      console.log(`exim${tls ? " (STARTTLS)" : ""}: ${toListener.length} DSNs delivered (${reused.length} down a reused connection), ` +
        `${unanswered.length} log lines of unanswered transactions; postern: ${await failed()} recorded`);
      expect(unanswered).toEqual([]);
      expect(toListener.length).toBe(N);
      expect(reused.length).toBeGreaterThan(N / 2);
      if (tls) expect(toListener.filter((l) => / X=TLS/.test(l)).length).toBe(N);
      expect(exim.queued()).toBe(0);
      expect(await failed()).toBe(N);
    }, 180_000);
  });
}
