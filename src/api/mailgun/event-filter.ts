// Mailgun's event filter expressions (GET /v3/{domain}/events): each filter field takes words or
// "quoted phrases" combined with AND (or just spaces), OR, NOT and parentheses; `size` takes
// >N / <N. A filter is matched against the Mailgun item postern answers, so what a client can
// read is exactly what it can filter on.
import { invalid } from "../../core/errors.ts";

type Node = { kind: "term"; value: string } | { kind: "not"; of: Node } | { kind: "and" | "or"; of: Node[] };

/** The documented filter fields. */
export const FILTER_FIELDS = ["event", "severity", "tags", "recipient", "recipients", "from", "to", "subject", "message-id", "list", "attachment", "size"] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

function tokenize(expr: string, field: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))/y;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < expr.length && (m = re.exec(expr))) {
    at = re.lastIndex;
    if (m[1] || m[2]) tokens.push(m[1] ?? m[2]!);
    else if (m[3] !== undefined) tokens.push(`"${m[3].replace(/\\(.)/g, "$1")}`); // a leading quote marks a phrase
    else tokens.push(m[4]!);
  }
  if (expr.slice(at).trim()) throw invalid(`the ${field} filter could not be read at "${expr.slice(at).trim()}"`, field);
  return tokens;
}

/** Parses one filter expression; throws a 400 naming `field` when it does not read. */
export function parseFilter(expr: string, field: string): Node {
  const tokens = tokenize(expr, field);
  let i = 0;
  const peek = () => tokens[i];
  const fail = (why: string): never => { throw invalid(`the ${field} filter ${why}`, field); };
  const isOp = (t: string | undefined, op: string) => t !== undefined && t.toUpperCase() === op;
  function unary(): Node {
    const t = tokens[i++];
    if (t === undefined) return fail("ends too early");
    if (isOp(t, "NOT")) return { kind: "not", of: unary() };
    if (t === "(") {
      const inner = or();
      if (tokens[i++] !== ")") fail("has an unclosed parenthesis");
      return inner;
    }
    if (t === ")" || isOp(t, "AND") || isOp(t, "OR")) return fail(`has "${t}" where a value belongs`);
    return { kind: "term", value: t.startsWith('"') ? t.slice(1) : t };
  }
  function and(): Node {
    const of = [unary()];
    while (peek() !== undefined && peek() !== ")" && !isOp(peek(), "OR")) {
      if (isOp(peek(), "AND")) i++;
      of.push(unary());
    }
    return of.length === 1 ? of[0]! : { kind: "and", of };
  }
  function or(): Node {
    const of = [and()];
    while (isOp(peek(), "OR")) { i++; of.push(and()); }
    return of.length === 1 ? of[0]! : { kind: "or", of };
  }
  if (!tokens.length) fail("is empty");
  const node = or();
  if (i < tokens.length) fail(`has an unexpected "${tokens[i]}"`);
  return node;
}

/** The terms of `node` (for checking them, e.g. event names). */
export function termsOf(node: Node): string[] {
  return node.kind === "term" ? [node.value] : node.kind === "not" ? termsOf(node.of) : node.of.flatMap(termsOf);
}

/** True when `node` holds for a field whose values are `values`, each term tested by `test`. */
export function matches(node: Node, test: (term: string) => boolean): boolean {
  switch (node.kind) {
    case "term": return test(node.value);
    case "not": return !matches(node.of, test);
    case "and": return node.of.every((n) => matches(n, test));
    case "or": return node.of.some((n) => matches(n, test));
  }
}

export type ParsedFilters = Partial<Record<FilterField, Node>>;

const lower = (s: unknown) => String(s ?? "").toLowerCase();
const bare = (s: string) => s.trim().replace(/^<|>$/g, "").toLowerCase();

/** How a term matches each field of a Mailgun event item. */
function termTest(field: FilterField, item: MailgunItem): (term: string) => boolean {
  const h = item.message?.headers ?? {};
  const contains = (value: unknown) => (t: string) => lower(value).includes(t.toLowerCase());
  switch (field) {
    case "event": return (t) => item.event === t.toLowerCase();
    case "severity": return (t) => lower(item.severity) === t.toLowerCase();
    case "tags": return (t) => item.tags.some((x) => x.toLowerCase() === t.toLowerCase());
    case "recipient": case "recipients": return (t) => item.recipient.toLowerCase() === t.toLowerCase();
    case "from": return contains(h.from);
    case "to": return contains(h.to);
    case "subject": return contains(h.subject);
    case "message-id": return (t) => bare(String(h["message-id"] ?? "")) === bare(t);
    case "list": return () => false; // postern's messages are never sent to a mailing list
    case "attachment": return (t) => (item.message?.attachments ?? []).some((a) => lower(a.filename).includes(t.toLowerCase()));
    case "size": return (t) => {
      const m = /^([<>]=?)?\s*(\d+)$/.exec(t.trim());
      const size = item.message?.size ?? 0;
      if (!m) return false;
      const n = Number(m[2]);
      return m[1] === ">" ? size > n : m[1] === "<" ? size < n : m[1] === ">=" ? size >= n : m[1] === "<=" ? size <= n : size === n;
    };
  }
}

/** The fields of a Mailgun event item the filters read. */
export interface MailgunItem {
  event: string;
  severity?: string;
  tags: string[];
  recipient: string;
  message?: { headers?: Record<string, unknown>; size?: number; attachments?: { filename?: string }[] };
}

/** True when `item` passes every filter. */
export function passes(filters: ParsedFilters, item: MailgunItem): boolean {
  return (Object.entries(filters) as [FilterField, Node][]).every(([field, node]) => matches(node, termTest(field, item)));
}
