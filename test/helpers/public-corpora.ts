// Other projects' public bounce suites, read from ../shared/corpora/<name>/ (never copied here), with
// postern's own labels in test/fixtures/bounces/labels/<name>.tsv (each file's header says how they were given).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Expected, Labelled } from "./bounce-score.ts";

const LABELS = join(import.meta.dir, "../fixtures/bounces/labels");

export interface PublicCorpus {
  /** A file that must be there for the corpus to count as present. */
  needs: string;
  /** Floors a little under the figures of 2026-11-28, or of 2026-11-29 where they rose (tune / holdout, every view the same or higher). */
  floor: { tune: number; holdout: number };
  /** The files are a bounce's text part alone (crisp's fixtures): they get a mailer daemon's header. */
  bodyOnly?: boolean;
}

export const PUBLIC_CORPORA: Record<string, PublicCorpus> = {
  "bounceparser": { needs: "postfix.msg", floor: { tune: 97, holdout: 92 } },
  "flufl-bounce": { needs: "postfix_01.txt", floor: { tune: 99, holdout: 97.5 } },
  "bounce-email": { needs: "tt_bounce_01.txt", floor: { tune: 99, holdout: 99 } },
  "php-bounce-handler": { needs: "1.eml", floor: { tune: 99, holdout: 99 } },
  "small-suites": { needs: "baunsu/bounce_aol.txt", floor: { tune: 99, holdout: 99 } },
  "more-suites": { needs: "flanker/zed.eml", floor: { tune: 99, holdout: 99 } },
  "crisp-bounce": { needs: "550_5_1_1_no_such_recipient.txt", floor: { tune: 95, holdout: 99 }, bodyOnly: true },
  "fresh-suites-b": { needs: "cws-mbh/bounce_511_001.eml", floor: { tune: 99, holdout: 99 } },
  "fresh-suites-c2": { needs: "zammad/mail055.box", floor: { tune: 99, holdout: 99 } },
  "fresh-suites-e": { needs: "emailengine/zoho.eml", floor: { tune: 99, holdout: 99 } },
  "fresh-suites-f": { needs: "dada/bounces-disabled.eml", floor: { tune: 99, holdout: 99 } },
  "fresh-suites-g": { needs: "mwbounce/email1", floor: { tune: 99, holdout: 99 } },
  "fresh-suites-h": { needs: "deltachat/gmail_ndn.eml", floor: { tune: 99, holdout: 99 } },
  // Its tune half holds the one miss first seen (espocrm/bounced_1, an expiry its suite calls hard; the label header says why).
  "fresh-suites-i": { needs: "stalwart/failure.eml", floor: { tune: 60, holdout: 99 } },
};

/** A text part alone, given the header a mailer daemon's bounce carries. */
export const asBounce = (body: Buffer): Buffer => Buffer.concat([Buffer.from("From: Mail Delivery System <MAILER-DAEMON@mailer.example>\r\n" +
  "To: bounces@sender.example\r\nSubject: Undelivered Mail Returned to Sender\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"), body]);

export function publicLabels(name: string): Labelled[] {
  return readFileSync(join(LABELS, `${name}.tsv`), "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => {
    const [file, split, category, why] = l.split("\t");
    return { file: file!, split: split as Labelled["split"], reasons: [why ?? ""], categories: [category as Expected] };
  });
}
