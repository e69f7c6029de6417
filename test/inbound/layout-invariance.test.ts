// A bounce gets the same verdict whatever layout its MTA gave it (test/helpers/relayout.ts): CRLF line ends, text
// parts in base64 or quoted-printable, the delivery-status part as RFC 6533's global one in base64, plain text
// wrapped as Postfix wraps it or unwrapped, and, for sisimai's set, the plain text re-sent as HTML alone. Verdicts are
// compared with themselves, not with labels, so the held-out corpora only add to the count. Plain texts that continue
// a reply on lines indented below it (Exim's and Postfix's notices without a DSN part) lose that indentation as
// HTML paragraphs; no MTA sends those as HTML, so the HTML layout is checked on sisimai's set alone.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CORPORA_DIR, corpusPresent, loadLabels, scoreMessage, SISIMAI_DIR, type Labelled, type Scored } from "../helpers/bounce-score.ts";
import { asBounce, PUBLIC_CORPORA, publicLabels } from "../helpers/public-corpora.ts";
import { relayout, type Layout } from "../helpers/relayout.ts";

const verdict = (s: Scored) => `${s.category} ${s.deferred ? "deferred" : "failed"} ${s.suppressed ? "suppressed" : "kept"} ${s.bounceClass ?? ""}`;

async function changed(dir: string, labels: Labelled[], layouts: Layout[], before?: (raw: Buffer) => Buffer): Promise<string[]> {
  const out: string[] = [];
  for (const l of labels.filter((x) => existsSync(join(dir, x.file)))) {
    const as = (await scoreMessage(dir, l, before)).map(verdict);
    for (const layout of layouts) {
      const now = (await scoreMessage(dir, l, (raw) => relayout(before ? before(raw) : raw, layout))).map(verdict);
      now.forEach((v, i) => { if (v !== as[i]) out.push(`${l.file} as ${layout}: ${as[i]} → ${v}`); });
    }
  }
  return out;
}

describe("the layout an MTA gives a bounce does not change its verdict", () => {
  test.skipIf(!corpusPresent(SISIMAI_DIR))("sisimai's set: CRLF, base64, quoted-printable, global DSN, wrapped, unwrapped, HTML alone", async () => {
    const layouts: Layout[] = ["crlf", "base64", "quoted-printable", "global-base64", "wrapped", "unwrapped", "html"];
    expect(await changed(SISIMAI_DIR, loadLabels(SISIMAI_DIR), layouts)).toEqual([]);
  }, 120_000);
  for (const [name, corpus] of Object.entries(PUBLIC_CORPORA)) {
    const dir = join(CORPORA_DIR, name);
    test.skipIf(!corpusPresent(dir, corpus.needs))(`${name}: CRLF, base64, quoted-printable, global DSN, wrapped, unwrapped`, async () => {
      const layouts: Layout[] = ["crlf", "base64", "quoted-printable", "global-base64", "wrapped", "unwrapped"];
      expect(await changed(dir, publicLabels(name), layouts, corpus.bodyOnly ? asBounce : undefined)).toEqual([]);
    }, 60_000);
  }
});
