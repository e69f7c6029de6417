// Expressions of SparkPost's template language: paths (`a.b`, `a['b']`, `a[key]`, 1-based array
// indexes), literals, `== != ~= < > <= >=`, `and or not`, the length operator `#` and macros.
// Evaluation never calls into the data (own properties only, no prototype lookups) and counts
// every step against a budget, so hostile data or templates cannot run away.

export type Expr =
  | { k: "lit"; v: unknown }
  | { k: "var"; name: string }
  | { k: "get"; obj: Expr; key: Expr }
  | { k: "len" | "not"; e: Expr }
  | { k: "and" | "or"; a: Expr; b: Expr }
  | { k: "cmp"; op: string; a: Expr; b: Expr }
  | { k: "call"; name: string; args: Expr[] };

export class TemplateError extends Error {}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)|(==|!=|~=|<=|>=|[<>#().[\],]))/y;
const KEYWORDS = new Set(["and", "or", "not", "true", "false", "nil"]);
const RELATIONAL = new Set(["==", "!=", "~=", "<", ">", "<=", ">="]);
const MACROS = new Set(["opening_double_curly", "closing_double_curly", "opening_triple_curly", "closing_triple_curly", "empty", "render_dynamic_content"]);

type Token = { t: "num" | "str" | "id" | "op"; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m) {
      if (src.slice(at).trim() === "") break;
      throw new TemplateError(`unexpected "${src.slice(at).trim().slice(0, 20)}" in {{ ${src.trim()} }}`);
    }
    if (m[1] !== undefined) out.push({ t: "num", v: m[1] });
    else if (m[2] !== undefined) out.push({ t: "str", v: m[2].slice(1, -1).replace(/\\(.)/g, "$1") });
    else if (m[3] !== undefined) out.push({ t: "id", v: m[3] });
    else out.push({ t: "op", v: m[4]! });
  }
  return out;
}

/** Parses one expression (the inside of `{{ }}` or the condition of `if`/`each`). */
export function parseExpr(src: string): Expr {
  const tokens = tokenize(src);
  let i = 0;
  const peek = () => tokens[i];
  const fail = (what: string): never => { throw new TemplateError(`${what} in {{ ${src.trim()} }}`); };
  const isOp = (v: string) => peek()?.t === "op" && peek()!.v === v;
  const isWord = (v: string) => peek()?.t === "id" && peek()!.v === v;
  const expect = (v: string) => { if (!isOp(v)) fail(`expected "${v}"`); i++; };

  const or = (): Expr => { let a = and(); while (isWord("or")) { i++; a = { k: "or", a, b: and() }; } return a; };
  const and = (): Expr => { let a = not(); while (isWord("and")) { i++; a = { k: "and", a, b: not() }; } return a; };
  const not = (): Expr => { if (isWord("not")) { i++; return { k: "not", e: not() }; } return cmp(); };
  const cmp = (): Expr => {
    const a = unary();
    const t = peek();
    if (t?.t === "op" && RELATIONAL.has(t.v)) { i++; return { k: "cmp", op: t.v, a, b: unary() }; }
    return a;
  };
  const unary = (): Expr => { if (isOp("#")) { i++; return { k: "len", e: unary() }; } return postfix(); };
  const postfix = (): Expr => {
    let e = primary();
    for (;;) {
      if (isOp(".")) {
        i++;
        const t = peek();
        if (t?.t !== "id") fail("expected a name after \".\"");
        i++;
        e = { k: "get", obj: e, key: { k: "lit", v: t!.v } };
      } else if (isOp("[")) {
        i++;
        const key = or();
        expect("]");
        e = { k: "get", obj: e, key };
      } else return e;
    }
  };
  const primary = (): Expr => {
    const t = peek();
    if (!t) return fail("missing value");
    i++;
    if (t.t === "num") return { k: "lit", v: Number(t.v) };
    if (t.t === "str") return { k: "lit", v: t.v };
    if (t.t === "op" && t.v === "(") { const e = or(); expect(")"); return e; }
    if (t.t !== "id" || (KEYWORDS.has(t.v) && !["true", "false", "nil"].includes(t.v))) return fail(`unexpected "${t.v}"`);
    if (t.v === "true" || t.v === "false") return { k: "lit", v: t.v === "true" };
    if (t.v === "nil") return { k: "lit", v: null };
    if (!isOp("(")) return { k: "var", name: t.v };
    if (!MACROS.has(t.v)) fail(`unknown macro ${t.v}()`);
    i++;
    const args: Expr[] = [];
    while (!isOp(")")) {
      args.push(or());
      if (!isOp(")")) expect(",");
    }
    i++;
    return { k: "call", name: t.v, args };
  };

  const e = or();
  if (i < tokens.length) fail(`unexpected "${tokens[i]!.v}"`);
  return e;
}

/** What an evaluation can see: the merged data, the loop variables, and the step budget. */
export interface EvalScope {
  data: Record<string, unknown>;
  loopVar?: unknown;
  loopIndex?: number;
  loopVars: Record<string, unknown>;
  budget: { steps: number };
  /** Renders dynamic content (render_dynamic_content); supplied by the template renderer. */
  renderDynamic(source: unknown): string;
}

/** A string that must not be escaped again (macro output). */
export class SafeString { constructor(readonly value: string) {} }

const own = (obj: unknown, key: string): unknown =>
  obj !== null && typeof obj === "object" && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;

function getMember(obj: unknown, key: unknown): unknown {
  if (Array.isArray(obj)) return typeof key === "number" && Number.isInteger(key) && key >= 1 ? obj[key - 1] : undefined;
  if (typeof key === "number") return own(obj, String(key));
  return typeof key === "string" ? own(obj, key) : undefined;
}

/** Lua-like truth: only nil and false are false. */
export const isTruthy = (v: unknown) => v !== null && v !== undefined && v !== false;

function compare(op: string, a: unknown, b: unknown): boolean {
  if (op === "==") return (a ?? null) === (b ?? null);
  if (op === "!=" || op === "~=") return (a ?? null) !== (b ?? null);
  const comparable = (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
  if (!comparable) return false;
  const [x, y] = [a as number | string, b as number | string];
  return op === "<" ? x < y : op === ">" ? x > y : op === "<=" ? x <= y : x >= y;
}

const CURLY_MACROS: Record<string, string> = {
  opening_double_curly: "{{", closing_double_curly: "}}", opening_triple_curly: "{{{", closing_triple_curly: "}}}",
};


function call(name: string, args: unknown[], scope: EvalScope): unknown {
  if (Object.hasOwn(CURLY_MACROS, name)) return new SafeString(CURLY_MACROS[name]!);
  if (name === "empty") return !Array.isArray(args[0]) || args[0].length === 0;
  if (name === "render_dynamic_content") return new SafeString(scope.renderDynamic(args[0]));
  throw new TemplateError(`unknown macro ${name}()`);
}

/** Evaluates `e`; throws TemplateError when the step budget is spent or a macro is unknown. */
export function evaluate(e: Expr, scope: EvalScope): unknown {
  if (--scope.budget.steps < 0) throw new TemplateError("the template needs too many steps to render");
  switch (e.k) {
    case "lit": return e.v;
    case "var":
      if (e.name === "loop_var") return scope.loopVar;
      if (e.name === "loop_index") return scope.loopIndex;
      if (e.name === "loop_vars") return scope.loopVars;
      return own(scope.data, e.name);
    case "get": return getMember(evaluate(e.obj, scope), evaluate(e.key, scope));
    case "len": {
      const v = evaluate(e.e, scope);
      return Array.isArray(v) || typeof v === "string" ? v.length : 0;
    }
    case "not": return !isTruthy(evaluate(e.e, scope));
    case "and": { const a = evaluate(e.a, scope); return isTruthy(a) ? evaluate(e.b, scope) : a; }
    case "or": { const a = evaluate(e.a, scope); return isTruthy(a) ? a : evaluate(e.b, scope); }
    case "cmp": return compare(e.op, evaluate(e.a, scope), evaluate(e.b, scope));
    case "call": return call(e.name, e.args.map((a) => evaluate(a, scope)), scope);
  }
}

/** The name `loop_vars.<name>` uses for an `each` over `e`: the last key of its path. */
export function loopName(e: Expr): string | null {
  if (e.k === "var") return e.name;
  if (e.k === "get" && e.key.k === "lit" && typeof e.key.v === "string") return e.key.v;
  return null;
}
