// Every real bounce of the public corpora (test/helpers/public-corpora.ts) is accepted at SMTP when a
// remote MTA hands it to the VERP return path of a message postern sent, with the null sender
// (RFC 5321 §4.5.5), whatever its layout: never "this address only takes delivery and complaint
// reports" (#38). The messages are read from ../shared/corpora/<name>/; an absent corpus is skipped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { CORPORA_DIR, corpusPresent } from "../helpers/bounce-score.ts";
import { asBounce, PUBLIC_CORPORA, publicLabels } from "../helpers/public-corpora.ts";

const present = Object.entries(PUBLIC_CORPORA).filter(([name, c]) => corpusPresent(join(CORPORA_DIR, name), c.needs));
let t: TestApp;
let sink: Sink;
let smtpPort = 0;

beforeAll(async () => {
  if (present.length === 0) return;
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  const where = await t.app.start();
  smtpPort = Number(where.smtp!.split(":").pop());
});
afterAll(async () => { if (t) await t.close(); if (sink) await sink.close(); });

/** The VERP return path of a message postern really sent. */
async function returnPath(rcpt: string): Promise<string> {
  const principal = (await t.app.access.authenticate(t.domainKey))!;
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
    envelopes: [{ to: [{ email: rcpt }], subject: "hi", text: "body" }] });
  return (await sink.waitFor(before + 1))[before]!.from;
}

/** One SMTP session delivering every message in turn; the reply to each end of data. */
function deliverAll(to: string, raws: Buffer[]): Promise<string[]> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
  const replies: string[] = [];
  return new Promise((resolve, reject) => {
    conn.on("error", reject);
    const next = (i: number): void => {
      if (i === raws.length) { conn.quit(); resolve(replies); return; }
      conn.send({ from: "", to: [to] }, raws[i]!, (err, info) => {
        replies.push(err ? `refused: ${(err as { response?: string }).response ?? err.message}` : info.response);
        if (err) conn.reset(() => next(i + 1)); else next(i + 1);
      });
    };
    conn.connect(() => next(0));
  });
}

describe.skipIf(present.length === 0)("every real bounce of the public corpora is accepted at SMTP", () => {
  for (const [name, c] of present) {
    test(name, async () => {
      const files = publicLabels(name).filter((l) => l.categories[0] !== "none").map((l) => l.file);
      const raws = files.map((f) => readFileSync(join(CORPORA_DIR, name, f))).map((raw) => (c.bodyOnly ? asBounce(raw) : raw));
      const replies = await deliverAll(await returnPath(`${name}@dest.test`), raws);
      const refused = replies.map((r, i) => (r.startsWith("250") ? "" : `${files[i]}: ${r}`)).filter(Boolean);
      expect(refused).toEqual([]);
      expect(replies).toHaveLength(files.length);
    }, 120_000);
  }
});
