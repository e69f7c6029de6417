// CLI output: human text or --json (only data on stdout), one-line errors on stderr, and the
// exit codes of the contract (0 ok, 1 user error, 2 usage error).
import { AppError } from "../src/core/errors.ts";
import { ConfigError } from "../src/config/load.ts";

export class UsageError extends Error {}

export interface Output {
  json: boolean;
  /** Prints `data` as JSON with --json, else the human rendering. */
  print(data: unknown, human: () => string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    print(data, human) {
      process.stdout.write((json ? JSON.stringify(data, null, 2) : human()) + "\n");
    },
  };
}

/** A fixed-width table for human output. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join("\n");
}

/** `text` in at most `max` characters, its middle replaced by "…" so both ends stay readable. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) * 0.6);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/**
 * A table in `width` columns: the `flexible` columns (longest first) are shortened until the
 * widest line fits, none below 12 characters; --json keeps every value whole.
 */
export function fittedTable(rows: Record<string, unknown>[], columns: string[], flexible: string[], width = 80): string {
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : String(v));
  const widthOf = (c: string, list: Record<string, unknown>[]) => Math.max(c.length, ...list.map((r) => cell(r[c]).length));
  let fitted = rows.map((r) => ({ ...r }));
  const total = () => columns.reduce((n, c) => n + widthOf(c, fitted), 0) + 2 * (columns.length - 1);
  for (let over = total() - width; over > 0; over = total() - width) {
    const c = [...flexible].sort((a, b) => widthOf(b, fitted) - widthOf(a, fitted))[0]!;
    const max = Math.max(12, widthOf(c, fitted) - over);
    if (max >= widthOf(c, fitted)) break;
    fitted = fitted.map((r) => ({ ...r, [c]: shorten(cell(r[c]), max) }));
  }
  return table(fitted, columns);
}

export const isoTime = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString().replace(/\.\d+Z$/, "Z") : null);

/** Maps a thrown value to the contract's exit code and one line on stderr. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) { process.stderr.write(`postern: ${err.message}\n`); return 2; }
  if (err instanceof ConfigError) { process.stderr.write(`postern: bad config: ${err.problems.join("; ")}\n`); return 1; }
  if (err instanceof AppError) { process.stderr.write(`postern: ${err.message}\n`); return 1; }
  const msg = err instanceof Error ? err.message : String(err);
  process.stderr.write(`postern: ${msg.split("\n")[0]}\n`);
  return 1;
}
