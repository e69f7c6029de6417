// SparkPost's template language, checked against the examples of its template-language reference.
import { describe, expect, test } from "bun:test";
import { compileTemplate, type TemplateMode } from "../../../src/api/sparkpost/substitution.ts";

const render = (src: string, data: Record<string, unknown> = {}, mode: TemplateMode = "html") => compileTemplate(src, mode).render(data);

describe("expressions", () => {
  const table: [string, string, Record<string, unknown>, string][] = [
    ["missing and null values are empty", "* {{name}}\n* {{age}}\n* {{x}}", { name: "Jane", age: null }, "* Jane\n* \n* "],
    ["whitespace inside braces is ignored", "{{ value }}{{value}}{{  value   }}", { value: "a" }, "aaa"],
    ["`or` gives a default", "Hello {{ name or 'Customer' }}", { name: null }, "Hello Customer"],
    ["nested paths by dot, quoted key and variable key", "{{a.street}}|{{a['city']}}|{{a[part]}}", { a: { street: "Howard", city: "SF" }, part: "street" }, "Howard|SF|Howard"],
    ["array indexes start at 1", "{{ kids[1] }} and {{ cart[2].name }}", { kids: ["Rusty"], cart: [{ name: "J" }, { name: "G" }] }, "Rusty and G"],
    ["the length operator", "{{#states}}", { states: ["MD", "CA"] }, "2"],
    ["numbers print like SparkPost's", "{{a}} {{b}}", { a: 39.99, b: 5.0 }, "39.99 5"],
    ["html is escaped in {{ }}, raw in {{{ }}}", "{{h}} {{{h}}}", { h: "<b>Hi</b>" }, "&lt;b&gt;Hi&lt;&#x2F;b&gt; <b>Hi</b>"],
    ["values in links are URL-encoded", '<a href="https://x.test/d?user={{u}}&o={{o}}">', { u: "john", o: "Daily Deal!" }, '<a href="https://x.test/d?user=john&o=Daily%20Deal%21">'],
    ["triple braces in links are left alone", '<a href="https://{{{link}}}">', { link: "www.x.test/groups" }, '<a href="https://www.x.test/groups">'],
    ["brace macros print braces", "{{ opening_double_curly() }}x{{ closing_triple_curly() }}", {}, "{{x}}}"],
    ["prototype members are not data", "{{constructor}}{{toString}}{{s.length}}{{o.__proto__}}", { s: "abc", o: {} }, ""],
  ];
  for (const [name, src, data, out] of table) test(name, () => expect(render(src, data)).toBe(out));

  test("text does not escape; headers neither escape nor URL-encode", () => {
    expect(render("{{h}} https://x.test/?q={{h}}", { h: "a&b c" }, "text")).toBe("a&b c https://x.test/?q=a%26b%20c");
    expect(render("{{h}} https://x.test/?q={{h}}", { h: "a&b c" }, "header")).toBe("a&b c https://x.test/?q=a&b c");
  });
});

describe("statements", () => {
  test("if/elseif/else with relational and logical operators", () => {
    const src = "{{if age > 30 and state == \"MD\"}}A{{elseif not signed_up}}B{{else}}C{{end}}";
    expect(render(src, { age: 31, state: "MD" })).toBe("A");
    expect(render(src, { age: 20 })).toBe("B");
    expect(render(src, { age: 20, signed_up: true })).toBe("C");
    expect(render("{{if x then}}yes{{end}}", { x: 0 })).toBe("yes");
    expect(render("{{if x ~= 'a'}}ne{{end}}", { x: "b" })).toBe("ne");
  });

  test("statements on their own line leave no blank line", () => {
    expect(render("Start\n{{ if state == \"MD\" }}\nMaryland\n{{ end }}\nEnd", { state: "MD" })).toBe("Start\nMaryland\nEnd");
  });

  test("each with loop_var, loop_index and nested loop_vars", () => {
    const src = "{{each cart}}\nItem {{loop_index}}: {{loop_vars.cart.name}}\n{{each loop_vars.cart.opts}}\n  - {{loop_vars.opts.key}}\n{{end}}\n{{end}}";
    const data = { cart: [{ name: "Jacket", opts: [{ key: "v2" }, { key: "v1" }] }, { name: "Gloves" }] };
    expect(render(src, data)).toBe("Item 0: Jacket\n  - v2\n  - v1\nItem 1: Gloves\n");
    expect(render("{{each x}}a{{end}}", { x: null })).toBe("");
  });

  test("empty() and render_dynamic_content()", () => {
    const src = "{{if not empty(offers)}}{{each offers}}<li>{{render_dynamic_content(dynamic_html[loop_var])}}</li>{{end}}{{else}}none{{end}}";
    const data = { name: "John", offers: ["o1"], dynamic_html: { o1: '<a href="http://t.test/1?n={{name}}">X</a>' } };
    expect(render(src, data)).toBe('<li><a href="http://t.test/1?n=John">X</a></li>');
    expect(render(src, { offers: [] })).toBe("none");
  });

  test("amp-mustache tags are kept unless they are SparkPost's", () => {
    const src = '<template type="amp-mustache">{{name}} {{sparkpost_name}} {{#items}}x{{/items}}</template>{{name}}';
    expect(render(src, { name: "N", sparkpost_name: "S" }, "amp")).toBe('<template type="amp-mustache">{{name}} S {{#items}}x{{/items}}</template>N');
  });
});

describe("errors and limits", () => {
  for (const bad of ["{{if x}}no end", "{{end}}", "{{else}}", "{{ a b }}", "{{ f( }}", "{{ x", "{{ nosuch() }}x"]) {
    test(`${JSON.stringify(bad)} is refused`, () => expect(() => render(bad, { x: 1 })).toThrow());
  }

  test("loops over loops run out of steps instead of running away", () => {
    const a = Array.from({ length: 2000 }, (_, i) => i);
    expect(() => render("{{each a}}{{each a}}{{each a}}{{end}}{{end}}{{end}}", { a })).toThrow("too many steps");
  });

  test("output is capped", () => {
    expect(() => compileTemplate("{{each a}}{{s}}{{end}}", "text").render({ a: [1, 2, 3], s: "x".repeat(100) }, { maxOutput: 250 })).toThrow("exceeds");
  });
});
