// The corpora #38 measured (sisimai's set, BounceParser's and flufl.bounce's) the way its held-out instrument feeds them: each real
// bounce is handed by SMTP, with the null sender, to the VERP return path of its own message that postern sent, and the
// verdict is read back from the events and the suppression list. It must be the verdict the scorer
// (test/helpers/bounce-score.ts) gives, so that the figures printed by public-bounce-corpora.test.ts are the product's.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { CORPORA_DIR, corpusPresent, loadLabels, scoreMessage, SISIMAI_DIR, type Labelled, type Scored } from "../helpers/bounce-score.ts";
import { PUBLIC_CORPORA, publicLabels } from "../helpers/public-corpora.ts";
import { bounceCategory } from "../../src/core/bounce/index.ts";

/** name, directory, labelled messages: the sets present. */
const NAMED: [string, string, () => Labelled[]][] = [
  ...(corpusPresent(SISIMAI_DIR) ? [["sisimai-set", SISIMAI_DIR, () => loadLabels(SISIMAI_DIR)] as [string, string, () => Labelled[]]] : []),
  ...["bounceparser", "flufl-bounce"].filter((name) => corpusPresent(join(CORPORA_DIR, name), PUBLIC_CORPORA[name]!.needs))
    .map((name): [string, string, () => Labelled[]] => [name, join(CORPORA_DIR, name), () => publicLabels(name)]),
];
let t: TestApp;
let sink: Sink;
let smtpPort = 0;

beforeAll(async () => {
  if (NAMED.length === 0) return;
  sink = await startSink();
  // An instrument (or a receiver's outbound pool) may open a connection per bounce; the per-IP rate has its own test.
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`, smtpToml: "connections_per_minute_per_ip = 0" });
  smtpPort = Number((await t.app.start()).smtp!.split(":").pop());
});
afterAll(async () => { if (t) await t.close(); if (sink) await sink.close(); });

/** One message per recipient, sent for real; the VERP return path each was sent with. */
async function returnPaths(rcpts: string[]): Promise<Map<string, string>> {
  const principal = (await t.app.access.authenticate(t.domainKey))!;
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
    envelopes: rcpts.map((email) => ({ to: [{ email }], subject: "hi", text: "body" })) });
  const got = (await sink.waitFor(before + rcpts.length)).slice(before);
  return new Map(got.map((m) => [m.to[0]!, m.from]));
}

/** Hands one bounce to its return path on a connection of its own, as a remote MTA does; the reply. */
function deliver(to: string, raw: Buffer): Promise<string> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
  return new Promise((resolve) => {
    conn.on("error", (e: Error & { response?: string }) => resolve(`error ${e.response ?? e.message}`));
    conn.connect(() => conn.send({ from: "", to: [to] }, raw, (err, info) => {
      conn.quit();
      resolve(err ? `refused ${(err as { response?: string }).response ?? err.message}` : info.response);
    }));
  });
}

const asScored = (s: Scored) => `${s.category} ${s.deferred ? "deferred" : "failed"} ${s.suppressed ? "suppressed" : "kept"}`;

/** The verdict postern recorded for a recipient: its bounce class's category, deferred or failed, suppressed or kept. */
async function recorded(rcpt: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    for (const zone of t.app.store.zoneNames()) {
      const [e] = await t.app.store.zone(zone).searchEvents({ recipient: rcpt, types: ["failed", "deferred"], limit: 1 } as never);
      if (!e) continue;
      const suppressed = Boolean(await t.app.suppressions.get("example.com", "bounces", rcpt));
      return `${bounceCategory(e.bounceClass as never)} ${e.type} ${suppressed ? "suppressed" : "kept"}`;
    }
    await Bun.sleep(25);
  }
  return "none";
}

describe.skipIf(NAMED.length === 0)("the corpora #38 measured, through the inbound listener", () => {
  for (const [name, dir, labelled] of NAMED) {
    // A message's first labelled recipient: its own return path stands for that recipient.
    test(`${name}: every bounce is accepted, and the verdict recorded is the scorer's`, async () => {
      const labels = labelled().filter((l) => l.categories[0] !== "none");
      const paths = await returnPaths(labels.map((_, i) => `${name}-${i}@dest.test`));
      const differ: string[] = [];
      // A few remote MTAs at once, as a receiver's outbound pool sends its DSNs.
      const check = async (i: number, l: Labelled) => {
        const rcpt = `${name}-${i}@dest.test`;
        const reply = await deliver(paths.get(rcpt)!, readFileSync(join(dir, l.file)));
        const want = asScored((await scoreMessage(dir, l))[0]!);
        const got = reply.startsWith("250") ? await recorded(rcpt) : reply;
        if (got !== want) differ.push(`${l.file}: scorer ${want}, listener ${got}`);
      };
      for (let i = 0; i < labels.length; i += 4) await Promise.all(labels.slice(i, i + 4).map((l, k) => check(i + k, l)));
      expect(differ).toEqual([]);
    }, 240_000);
  }
});
