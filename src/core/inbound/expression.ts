// Mailgun route filters and actions, parsed once when a route is saved and evaluated for every
// received recipient. Mailgun's patterns are Python regular expressions applied with re.match
// (anchored at the start); named groups `(?P<name>…)` become JavaScript's `(?<name>…)` and the
// captures can be used in actions as `\1` or `\g<name>`.

export type Filter =
  | { kind: "recipient"; re: RegExp }
  | { kind: "header"; name: string; re: RegExp }
  | { kind: "catch_all" };

export type Action =
  | { kind: "forward"; destination: string }
  | { kind: "store"; notify: string | null }
  | { kind: "stop" };

export class RouteSyntaxError extends Error {}

const MAX_EXPRESSION = 4000;

/** Reads a quoted string at `s[i]` ('…' or "…"); a backslash escapes only the quote or itself. */
function readString(s: string, i: number): [string, number] {
  const q = s[i];
  if (q !== '"' && q !== "'") throw new RouteSyntaxError(`expected a quoted string at position ${i}`);
  let out = "";
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]!;
    if (c === "\\" && (s[j + 1] === q || s[j + 1] === "\\") && s[j + 1] !== undefined) {
      // Keep "\\" as two characters: inside a regex it still means a literal backslash.
      out += s[j + 1] === q ? q : "\\\\";
      j++;
    } else if (c === q) return [out, j + 1];
    else out += c;
  }
  throw new RouteSyntaxError("unterminated string");
}

const skipSpace = (s: string, i: number) => { while (i < s.length && /\s/.test(s[i]!)) i++; return i; };

function expect(s: string, i: number, token: string): number {
  i = skipSpace(s, i);
  if (!s.startsWith(token, i)) throw new RouteSyntaxError(`expected '${token}' at position ${i}`);
  return i + token.length;
}

/** A Python pattern as an anchored JavaScript RegExp (case-insensitive, as addresses are). */
export function pythonRegex(pattern: string): RegExp {
  const js = pattern.replace(/\(\?P<([A-Za-z_]\w*)>/g, "(?<$1>").replace(/\(\?P=([A-Za-z_]\w*)\)/g, "\\k<$1>");
  try {
    return new RegExp(`^(?:${js})`, "iu");
  } catch {
    try { return new RegExp(`^(?:${js})`, "i"); } catch (e) { throw new RouteSyntaxError(`invalid pattern: ${(e as Error).message}`); }
  }
}

function readCall(s: string, i: number): [string, string[], Record<string, string>, number] {
  i = skipSpace(s, i);
  const m = /^[a-z_]+/.exec(s.slice(i));
  if (!m) throw new RouteSyntaxError(`expected a function at position ${i}`);
  const name = m[0];
  i = expect(s, i + name.length, "(");
  const args: string[] = [];
  const named: Record<string, string> = {};
  i = skipSpace(s, i);
  while (s[i] !== ")") {
    if (i >= s.length) throw new RouteSyntaxError(`unclosed ${name}(`);
    const key = /^([a-z_]+)\s*=\s*/.exec(s.slice(i));
    if (key) i += key[0].length;
    const [value, next] = readString(s, i);
    if (key) named[key[1]!] = value;
    else args.push(value);
    i = skipSpace(s, next);
    if (s[i] === ",") i = skipSpace(s, i + 1);
    else if (s[i] !== ")") throw new RouteSyntaxError(`expected ',' or ')' at position ${i}`);
  }
  return [name, args, named, i + 1];
}

/** Parses `match_recipient(…)`, `match_header(…, …)`, `catch_all()`, joined by `and`. */
export function parseExpression(text: string): Filter[] {
  if (text.length > MAX_EXPRESSION) throw new RouteSyntaxError("expression too long");
  const filters: Filter[] = [];
  let i = 0;
  for (;;) {
    const [name, args, , next] = readCall(text, i);
    if (name === "match_recipient" && args.length === 1) filters.push({ kind: "recipient", re: pythonRegex(args[0]!) });
    else if (name === "match_header" && args.length === 2) filters.push({ kind: "header", name: args[0]!.toLowerCase(), re: pythonRegex(args[1]!) });
    else if (name === "catch_all" && args.length === 0) filters.push({ kind: "catch_all" });
    else throw new RouteSyntaxError(`unknown filter ${name}() with ${args.length} argument(s)`);
    i = skipSpace(text, next);
    if (i >= text.length) break;
    const and = /^and\b/i.exec(text.slice(i));
    if (!and) throw new RouteSyntaxError(`expected 'and' at position ${i}`);
    i += and[0].length;
  }
  if (filters.some((f) => f.kind === "catch_all") && filters.length > 1) throw new RouteSyntaxError("catch_all() stands alone");
  return filters;
}

/** Parses one action: `forward("…")`, `store()`, `store(notify="…")`, `stop()`. */
export function parseAction(text: string): Action {
  const [name, args, named, next] = readCall(text, 0);
  if (skipSpace(text, next) < text.length) throw new RouteSyntaxError(`unexpected text after ${name}()`);
  if (name === "forward" && args.length === 1 && args[0]!.trim()) return { kind: "forward", destination: args[0]!.trim() };
  if (name === "store" && args.length === 0) return { kind: "store", notify: named.notify?.trim() || null };
  if (name === "stop" && args.length === 0) return { kind: "stop" };
  throw new RouteSyntaxError(`unknown action ${name}()`);
}

/** Fills `\1`…`\9` and `\g<name>` in an action's destination from the filters' captures. */
export function fillCaptures(template: string, captures: { groups: string[]; named: Record<string, string> }): string {
  return template
    .replace(/\\g<([A-Za-z_]\w*)>/g, (_, n: string) => captures.named[n] ?? "")
    .replace(/\\([1-9])/g, (_, d: string) => captures.groups[Number(d) - 1] ?? "");
}
