// Scores the bounce reading (parseReport → verdictFor → suppressionFor) against a labelled corpus
// of real bounces (../shared/corpora/sisimai-set: sisimai's set-of-emails with sisimai's own
// reason per recipient, kept outside the repository), in the views a sender sees: SparkPost's bounce_class category, SendGrid's
// bounce / blocked / deferred, Mailgun's hard / soft, and whether the address was suppressed.
// Run directly to list the misses: `bun test/helpers/bounce-score.ts [tune|holdout|all] [--misses]`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport } from "../../src/inbound/reports.ts";
import { verdictFor } from "../../src/inbound/report-handler.ts";
import { bounceCategory } from "../../src/core/bounce/index.ts";
import { suppressionFor } from "../../src/core/suppression-policy.ts";
import type { MessageEvent } from "../../src/core/model.ts";
import { matches as sisimaiMatches } from "../../src/core/bounce/sisimai-reason.ts";

/** The shared corpora, `../shared/corpora/` from the repository's root (POSTERN_CORPORA elsewhere): public data
 *  sets are read there, never copied in. */
export const CORPORA_DIR = process.env.POSTERN_CORPORA ?? join(import.meta.dir, "../../../shared/corpora");
export const SISIMAI_DIR = join(CORPORA_DIR, "sisimai-set");

/** Whether a shared corpus is present; when it is not, says so once (the tests that need it skip). */
const told = new Set<string>();
export function corpusPresent(dir: string, needs = "labels.tsv"): boolean {
  if (existsSync(join(dir, needs))) return true;
  if (!told.has(dir)) console.warn(`SKIP: corpus ${dir} is absent (tests reading it are skipped; see docs/bounces.md)`);
  told.add(dir);
  return false;
}

export type Expected = "hard" | "soft" | "block" | "none";
export interface Labelled { file: string; split: "tune" | "holdout"; reasons: string[]; categories: Expected[] }
export interface Scored {
  file: string; split: string; reason: string; expected: Expected;
  /** What postern made of this recipient: none, or the category of its bounce class. */
  category: string; deferred: boolean; suppressed: boolean; bounceClass?: number; text?: string;
}

export function loadLabels(dir = SISIMAI_DIR): Labelled[] {
  return readFileSync(join(dir, "labels.tsv"), "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => {
    const [file, split, reasons, categories] = l.split("\t");
    return { file: file!, split: split as Labelled["split"], reasons: reasons!.split(","), categories: categories!.split(",") as Expected[] };
  });
}

const event = (v: ReturnType<typeof verdictFor>): MessageEvent => ({
  id: "e", type: "failed", severity: "permanent", messageId: "m", recipient: "r@example.org", domain: "example.com", timestamp: 0,
  tags: [], metadata: {}, code: v.code, enhancedCode: v.enhancedCode, description: v.text, bounceClass: v.bounceClass });

/** Every labelled recipient of one message, read the way a report reaching a VERP address is read. */
export async function scoreMessage(dir: string, l: Labelled, wrap: (raw: Buffer) => Buffer = (raw) => raw): Promise<Scored[]> {
  const report = await parseReport(wrap(readFileSync(join(dir, l.file))), { trusted: true });
  return l.categories.map((expected, i) => {
    const base = { file: l.file, split: l.split, reason: l.reasons[i] ?? "", expected };
    if (!report || report.kind !== "bounce") return { ...base, category: "none", deferred: false, suppressed: false };
    const r = report.recipients[i] ?? report.recipients[0];
    if (!r || (r.action !== "failed" && r.action !== "delayed")) return { ...base, category: "none", deferred: false, suppressed: false };
    const v = verdictFor(r, report.reportingMta);
    // The vendors' convention where sisimai's differs: sisimai files an unknown user refused after DATA
    // (words on its own userunknown or suspend list, Yahoo's "dd") under "filtered"; SparkPost, SendGrid and Mailgun
    // call a mailbox that does not exist an invalid recipient, a hard bounce that suppresses.
    const said = `${r.diagnostic?.text ?? ""} ${v.text}`.toLowerCase();
    if (base.reason === "filtered" && (sisimaiMatches("userunknown", said) || sisimaiMatches("suspend", said))) base.expected = "hard";
    const deferred = v.kind === "deferred";
    return { ...base, category: bounceCategory(v.bounceClass), deferred, suppressed: !deferred && suppressionFor(event(v)) !== null,
      bounceClass: v.bounceClass, text: v.text.slice(0, 160) };
  });
}

export async function scoreAll(dir = SISIMAI_DIR, filter: (l: Labelled) => boolean = () => true): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const l of loadLabels(dir).filter(filter)) out.push(...(await scoreMessage(dir, l)));
  return out;
}

/** SendGrid's event: hard bounces are `bounce`, refusals `blocked`; a soft failure may be either blocked or deferred. */
const sendgridOf = (s: Scored) => (s.category === "none" ? "none" : s.deferred ? "deferred" : s.category === "hard" ? "bounce" : "blocked");
const sendgridRight = (s: Scored) => {
  const got = sendgridOf(s);
  if (s.expected === "hard") return got === "bounce";
  if (s.expected === "block") return got === "blocked";
  if (s.expected === "soft") return got === "blocked" || got === "deferred";
  return got === "none";
};

/** The views scored, each a predicate over one recipient. Bounces only: sisimai's none (feedback,
 *  vacation, delivered) are scored apart, since complaints rightly suppress. */
export const VIEWS: Record<string, (s: Scored) => boolean> = {
  "SparkPost category": (s) => s.category === s.expected,
  "Mailgun hard/soft": (s) => (s.category === "hard") === (s.expected === "hard") && s.category !== "none" && s.category !== "undetermined",
  "SendGrid bounce/blocked/deferred": sendgridRight,
  "suppression right": (s) => s.suppressed === (s.expected === "hard"),
};

export interface Figures { view: string; right: number; n: number }
export function figures(scored: Scored[]): Figures[] {
  const bounces = scored.filter((s) => s.expected !== "none");
  const views = Object.entries(VIEWS).map(([view, ok]) => ({ view, right: bounces.filter(ok).length, n: bounces.length }));
  const perClass = (["hard", "soft", "block", "none"] as const).map((c) => {
    const of = scored.filter((s) => s.expected === c);
    return { view: `category ${c}`, right: of.filter((s) => s.category === c || (c === "none" && s.category === "none")).length, n: of.length };
  });
  return [...views, ...perClass];
}

export const pct = (f: Figures) => (f.n ? (100 * f.right) / f.n : 100);

if (import.meta.main) {
  const which = process.argv[2] ?? "tune";
  const scored = await scoreAll(SISIMAI_DIR, (l) => which === "all" || l.split === which);
  for (const f of figures(scored)) console.log(`${f.view.padEnd(34)} ${f.right}/${f.n} ${pct(f).toFixed(1)} %`);
  if (process.argv.includes("--misses")) {
    for (const s of scored.filter((x) => !VIEWS["SparkPost category"]!(x) || !VIEWS["suppression right"]!(x))) {
      console.log(`${s.file}\t${s.reason}\t${s.expected}\t${s.category}${s.deferred ? "/deferred" : ""}${s.suppressed ? "/supp" : ""}\t${s.bounceClass ?? ""}\t${s.text ?? ""}`);
    }
  }
}
