// The vendors' Handlebars dialects on isolated Handlebars instances: SendGrid's helpers (equals,
// notEquals, greaterThan, lessThan, and, or, length, formatDate, insert; as blocks with {{else}}
// chains or as subexpressions) and Mailgun's `equal`. Every render runs under a budget: `each`
// iterations, elapsed time and output size are bounded, so a template cannot hold the accept path.
import type Handlebars from "handlebars";
import { formatDate } from "./format-date.ts";

/**
 * Which helpers a template may call: "comparisons" (equals, notEquals, greaterThan, lessThan, and,
 * or, length, formatDate, insert: SendGrid's), or "equal" (only {{#equal}}: Mailgun's).
 */
export type Dialect = "comparisons" | "equal";

export interface RenderBudget {
  maxIterations: number;
  maxMillis: number;
  maxOutputChars: number;
}

export const DEFAULT_BUDGET: RenderBudget = { maxIterations: 100_000, maxMillis: 2_000, maxOutputChars: 10 * 1024 * 1024 };

/** A render stopped by its budget. */
export class BudgetExceeded extends Error {}

type Options = Handlebars.HelperOptions & { fn?: Handlebars.TemplateDelegate; inverse?: Handlebars.TemplateDelegate };

let budget: { left: number; deadline: number; chars: number; max: RenderBudget } | null = null;

function spend(chars: number) {
  if (!budget) return;
  budget.chars += chars;
  if (--budget.left < 0) throw new BudgetExceeded(`more than ${budget.max.maxIterations} loop iterations`);
  if (budget.chars > budget.max.maxOutputChars) throw new BudgetExceeded(`output larger than ${budget.max.maxOutputChars} characters`);
  if (performance.now() > budget.deadline) throw new BudgetExceeded(`rendering took longer than ${budget.max.maxMillis} ms`);
}

/** Handlebars truthiness: empty arrays are false too. */
const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));

/** A helper usable as a block ({{#h}}…{{else}}…{{/h}}) and as a subexpression ((h a b)). */
function conditional(test: (args: unknown[]) => boolean) {
  return function (this: unknown, ...all: unknown[]) {
    const options = all.pop() as Options;
    const ok = test(all);
    if (!options.fn) return ok;
    return ok ? options.fn(this) : options.inverse ? options.inverse(this) : "";
  };
}

const same = (a: unknown, b: unknown) =>
  a !== null && b !== null && typeof a !== "object" && typeof b !== "object" && a !== undefined && b !== undefined
    ? String(a) === String(b) : a === b;

function comparisonHelpers(hbs: typeof Handlebars) {
  hbs.registerHelper("equals", conditional(([a, b]) => same(a, b)));
  hbs.registerHelper("notEquals", conditional(([a, b]) => !same(a, b)));
  hbs.registerHelper("greaterThan", conditional(([a, b]) => Number(a) > Number(b)));
  hbs.registerHelper("lessThan", conditional(([a, b]) => Number(a) < Number(b)));
  hbs.registerHelper("and", conditional((args) => args.length > 0 && args.every(truthy)));
  hbs.registerHelper("or", conditional((args) => args.some(truthy)));
  hbs.registerHelper("length", (v: unknown) => (Array.isArray(v) || typeof v === "string" ? v.length : v && typeof v === "object" ? Object.keys(v).length : 0));
  hbs.registerHelper("formatDate", (...all: unknown[]) => {
    all.pop();
    const [date, format, offset] = all;
    return formatDate(date, typeof format === "string" ? format : undefined, typeof offset === "string" || typeof offset === "number" ? String(offset) : undefined);
  });
  hbs.registerHelper("insert", (...all: unknown[]) => {
    all.pop();
    const [value, spec] = all;
    if (value !== undefined && value !== null && value !== "") return value;
    const m = typeof spec === "string" ? /^default=(.*)$/s.exec(spec) : null;
    return m ? m[1] : "";
  });
}

function boundedEach(hbs: typeof Handlebars) {
  const builtin = hbs.helpers.each!;
  hbs.registerHelper("each", function (this: unknown, context: unknown, options: Options) {
    const fn = options.fn!;
    const counted = ((ctx: unknown, o: unknown) => {
      const out = fn(ctx, o as Handlebars.RuntimeOptions);
      spend(out.length);
      return out;
    }) as Handlebars.TemplateDelegate;
    return builtin.call(this, context, { ...options, fn: counted });
  });
}

function createInstance(dialect: Dialect): typeof Handlebars {
  // Loaded with the first template rendered (a few MB of a server's memory otherwise).
  const hbs = (require("handlebars") as typeof Handlebars).create();
  boundedEach(hbs);
  if (dialect === "comparisons") comparisonHelpers(hbs);
  // Mailgun's templates know {{#equal a "b"}}…{{/equal}}.
  else hbs.registerHelper("equal", conditional(([a, b]) => same(a, b)));
  return hbs;
}

const instances = new Map<Dialect, typeof Handlebars>();
const compiled = new Map<string, Handlebars.TemplateDelegate>();
const MAX_CACHED = 500;

/** Compiles (cached by dialect, escaping and source) and renders under `limits`; throws on errors. */
export function renderHandlebars(source: string, data: unknown, opts: { dialect: Dialect; escapeHtml: boolean; limits?: RenderBudget }): string {
  const key = `${opts.dialect}\u0000${opts.escapeHtml ? 1 : 0}\u0000${source}`;
  let tpl = compiled.get(key);
  if (!tpl) {
    let hbs = instances.get(opts.dialect);
    if (!hbs) instances.set(opts.dialect, (hbs = createInstance(opts.dialect)));
    tpl = hbs.compile(source, { noEscape: !opts.escapeHtml, strict: false });
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, tpl);
  }
  const max = opts.limits ?? DEFAULT_BUDGET;
  budget = { left: max.maxIterations, deadline: performance.now() + max.maxMillis, chars: 0, max };
  try {
    const out = tpl(data ?? {});
    if (out.length > max.maxOutputChars) throw new BudgetExceeded(`output larger than ${max.maxOutputChars} characters`);
    return out;
  } finally {
    budget = null;
  }
}

/** What went wrong, in one line, naming the missing helper or variable when Handlebars says which. */
export function describeRenderError(err: unknown): string {
  const msg = String((err as Error)?.message ?? err).split("\n")[0]!;
  const helper = /Missing helper: "([^"]+)"/.exec(msg);
  if (helper) return `missing helper "${helper[1]}"`;
  const variable = /"([^"]+)" not defined/.exec(msg);
  if (variable) return `missing variable "${variable[1]}"`;
  return msg;
}
