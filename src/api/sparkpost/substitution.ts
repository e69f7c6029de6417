// SparkPost's template language (developers.sparkpost.com/api/template-language): `{{ expr }}`
// (HTML-escaped in html/amp_html, URL-encoded inside links), `{{{ expr }}}` raw, `if/elseif/else/
// end`, `each … end` with loop_var/loop_index/loop_vars, and macros. Compiled once per
// transmission, rendered per recipient within a step and output budget.
import { evaluate, isTruthy, loopName, parseExpr, SafeString, TemplateError, type EvalScope, type Expr } from "./substitution-expr.ts";

export { TemplateError } from "./substitution-expr.ts";

/** html and amp escape `{{ }}`; text does not; header neither escapes nor URL-encodes. */
export type TemplateMode = "html" | "amp" | "text" | "header";

type Node =
  | { k: "text"; s: string }
  | { k: "out"; e: Expr; raw: boolean; url: boolean }
  | { k: "if"; branches: { cond: Expr; body: Node[] }[]; other: Node[] }
  | { k: "each"; e: Expr; name: string | null; body: Node[] };

export interface RenderLimits {
  /** Evaluation steps per render (loops over loops cost steps even when they print nothing). */
  maxSteps?: number;
  /** Characters of output per render. */
  maxOutput?: number;
}

export interface Template {
  /** True when the source holds no `{{`: rendering would return it unchanged. */
  readonly isStatic: boolean;
  render(data: Record<string, unknown>, limits?: RenderLimits): string;
}

const DEFAULT_STEPS = 2_000_000;
const DEFAULT_OUTPUT = 20 * 1024 * 1024;
const MAX_DYNAMIC_DEPTH = 3;
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;", "/": "&#x2F;" };
const STATEMENT = /^\s*(if|elseif|else|end|each)\b([\s\S]*)$/;
const AMP_MUSTACHE = /<template\b[^>]*type\s*=\s*["']amp-mustache["'][^>]*>[\s\S]*?<\/template>/gi;
// SparkPost leaves amp-mustache tags alone unless they are clearly its own (template-language "Escaping curly braces").
const AMP_OWN = /sparkpost|loop_var|_curly\(|^\s*(else|end)\s*$/;

const escapeHtml = (s: string) => s.replace(/[&<>"'/]/g, (c) => HTML_ESCAPES[c]!);
const encodeUrl = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function show(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v) ?? "";
}

/** True when the tag at `at` sits inside a link (`http(s)://…` with no break before it). */
function isInLink(src: string, at: number): boolean {
  const before = src.slice(Math.max(0, at - 2048), at);
  const start = Math.max(...[" ", "\t", "\r", "\n", '"', "'", "<", ">", "(", ")"].map((c) => before.lastIndexOf(c))) + 1;
  return /^https?:\/\//i.test(before.slice(start));
}

function ampRegions(src: string): [number, number][] {
  return [...src.matchAll(AMP_MUSTACHE)].map((m) => [m.index!, m.index! + m[0].length]);
}

interface Frame { node: Extract<Node, { k: "if" | "each" }> | null; body: Node[] }

/** Parses `src` into nodes; throws TemplateError on unbalanced or malformed tags. */
function parse(src: string, mode: TemplateMode): Node[] {
  const root: Node[] = [];
  const stack: Frame[] = [{ node: null, body: root }];
  const regions = mode === "amp" ? ampRegions(src) : [];
  const top = () => stack[stack.length - 1]!;
  let i = 0;
  for (;;) {
    const open = src.indexOf("{{", i);
    if (open < 0) { pushText(top().body, src.slice(i)); break; }
    const raw = src.startsWith("{{{", open);
    const close = src.indexOf(raw ? "}}}" : "}}", open + (raw ? 3 : 2));
    if (close < 0) throw new TemplateError(`unclosed ${raw ? "{{{" : "{{"} at character ${open}`);
    const inner = src.slice(open + (raw ? 3 : 2), close);
    let end = close + (raw ? 3 : 2);
    const st = raw ? null : STATEMENT.exec(inner);
    if (regions.some(([a, b]) => open >= a && open < b) && !AMP_OWN.test(inner)) {
      pushText(top().body, src.slice(i, end));
    } else if (st) {
      // A statement alone on its line leaves no blank line: its indentation and line break go.
      const lineStart = src.lastIndexOf("\n", open - 1) + 1;
      const after = /^[ \t]*\r?\n/.exec(src.slice(end));
      const isAlone = after !== null && lineStart >= i && /^[ \t]*$/.test(src.slice(lineStart, open));
      pushText(top().body, src.slice(i, isAlone ? lineStart : open));
      if (isAlone) end += after[0].length;
      statement(stack, st[1]!, st[2]!.replace(/\s+then\s*$/, ""));
    } else {
      pushText(top().body, src.slice(i, open));
      top().body.push({ k: "out", e: parseExpr(inner), raw, url: !raw && mode !== "header" && isInLink(src, open) });
    }
    i = end;
  }
  if (stack.length > 1) throw new TemplateError("missing {{end}}");
  return root;
}

function pushText(body: Node[], s: string) {
  if (s) body.push({ k: "text", s });
}

function statement(stack: Frame[], word: string, rest: string) {
  const top = stack[stack.length - 1]!;
  if (word === "if" || word === "each") {
    const e = parseExpr(rest);
    const node: Extract<Node, { k: "if" | "each" }> = word === "if"
      ? { k: "if", branches: [{ cond: e, body: [] }], other: [] }
      : { k: "each", e, name: loopName(e), body: [] };
    top.body.push(node);
    stack.push({ node, body: node.k === "if" ? node.branches[0]!.body : node.body });
    return;
  }
  const node = top.node;
  if (word === "end") {
    if (!node) throw new TemplateError("{{end}} without {{if}} or {{each}}");
    stack.pop();
    return;
  }
  if (node?.k !== "if") throw new TemplateError(`{{${word}}} outside {{if}}`);
  if (word === "elseif") {
    const branch = { cond: parseExpr(rest), body: [] as Node[] };
    node.branches.push(branch);
    top.body = branch.body;
  } else {
    top.body = node.other;
  }
}

interface RenderState { out: string[]; size: number; maxOutput: number }

function renderNodes(nodes: Node[], scope: EvalScope, state: RenderState, escape: boolean) {
  for (const n of nodes) {
    if (n.k === "text") emit(state, n.s);
    else if (n.k === "out") {
      const v = evaluate(n.e, scope);
      if (v instanceof SafeString) emit(state, v.value);
      else if (n.raw || (!escape && !n.url)) emit(state, show(v));
      else emit(state, n.url ? encodeUrl(show(v)) : escapeHtml(show(v)));
    } else if (n.k === "if") {
      const hit = n.branches.find((b) => isTruthy(evaluate(b.cond, scope)));
      renderNodes(hit ? hit.body : n.other, scope, state, escape);
    } else {
      const list = evaluate(n.e, scope);
      if (!Array.isArray(list)) continue;
      list.forEach((item, index) => {
        if (--scope.budget.steps < 0) throw new TemplateError("the template needs too many steps to render");
        const loopVars = n.name ? { ...scope.loopVars, [n.name]: item } : scope.loopVars;
        renderNodes(n.body, { ...scope, loopVar: item, loopIndex: index, loopVars }, state, escape);
      });
    }
  }
}

function emit(state: RenderState, s: string) {
  state.size += s.length;
  if (state.size > state.maxOutput) throw new TemplateError(`the rendered content exceeds ${state.maxOutput} characters`);
  state.out.push(s);
}

/** Compiles `source` for one content part; throws TemplateError on a syntax error. */
export function compileTemplate(source: string, mode: TemplateMode): Template {
  const isStatic = !source.includes("{{");
  const nodes = isStatic ? [] : parse(source, mode);
  const dynamic = new Map<string, Node[]>();
  const escape = mode === "html" || mode === "amp";

  function render(data: Record<string, unknown>, limits: RenderLimits = {}): string {
    if (isStatic) return source;
    const state: RenderState = { out: [], size: 0, maxOutput: limits.maxOutput ?? DEFAULT_OUTPUT };
    const budget = { steps: limits.maxSteps ?? DEFAULT_STEPS };
    let depth = 0;
    const scope: EvalScope = {
      data, loopVars: {}, budget,
      // Dynamic content is itself a template, rendered unescaped (template-language "Dynamic Content").
      renderDynamic(src) {
        if (typeof src !== "string") return "";
        if (depth >= MAX_DYNAMIC_DEPTH) throw new TemplateError("render_dynamic_content() nested too deeply");
        let parsed = dynamic.get(src);
        if (!parsed) { parsed = parse(src, mode === "header" ? "header" : "text"); dynamic.set(src, parsed); }
        const inner: RenderState = { out: [], size: state.size, maxOutput: state.maxOutput };
        depth++;
        try { renderNodes(parsed, { ...scope, loopVars: {} }, inner, false); } finally { depth--; }
        return inner.out.join("");
      },
    };
    renderNodes(nodes, scope, state, escape);
    return state.out.join("");
  }
  return { isStatic, render };
}
