import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTemplateStore, isValidTemplateName } from "../../src/core/templates.ts";
import { AppError } from "../../src/core/errors.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "postern-tpl-"));
  writeFileSync(join(dir, "welcome.subject"), "Hello {{name}} & co");
  writeFileSync(join(dir, "welcome.html"), "<p>Hi {{name}}</p>{{#each items}}<i>{{this}}</i>{{/each}}");
  writeFileSync(join(dir, "welcome.txt"), "Hi {{name}}, {{nested.a}}");
  writeFileSync(join(dir, "only-text.txt"), "plain {{x}}");
  writeFileSync(join(dir, "broken.html"), "{{#if}}");
  writeFileSync(join(dir, ".hidden.html"), "secret");
  writeFileSync(join(dir, "..html"), "dots");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("template store", () => {
  test("renders every part, escaping HTML only in the html part", async () => {
    const store = createTemplateStore({ dir });
    const out = await store.render("welcome", { name: "<Bob>", items: ["a", "b"], nested: { a: 1 } });
    expect(out).toEqual({ subject: "Hello <Bob> & co", html: "<p>Hi &lt;Bob&gt;</p><i>a</i><i>b</i>", text: "Hi <Bob>, 1" });
  });

  test("returns only the parts that exist, and null when none does", async () => {
    const store = createTemplateStore({ dir });
    expect(await store.render("only-text", { x: 1 })).toEqual({ text: "plain 1" });
    expect(await store.get("only-text")).toEqual({ text: "plain {{x}}" });
    expect(await store.render("missing", {})).toBeNull();
    expect(await store.get("missing")).toBeNull();
  });

  test("refuses names that are paths, hidden files or odd characters", async () => {
    const store = createTemplateStore({ dir });
    for (const name of ["../welcome", "a/b", ".hidden", ".", "..", "", "we lcome", "x\u0000", "a".repeat(200)]) {
      expect(isValidTemplateName(name)).toBe(false);
      expect(await store.get(name)).toBeNull();
    }
    expect(isValidTemplateName("d-123abc_v2.1")).toBe(true);
  });

  test("picks up a changed file and keeps the compiled one otherwise", async () => {
    const store = createTemplateStore({ dir });
    const file = join(dir, "changing.txt");
    writeFileSync(file, "v1 {{x}}");
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    expect(await store.render("changing", { x: "a" })).toEqual({ text: "v1 a" });
    writeFileSync(file, "v2 {{x}}");
    utimesSync(file, new Date(2_000_000), new Date(2_000_000));
    expect(await store.render("changing", { x: "b" })).toEqual({ text: "v2 b" });
    rmSync(file);
    expect(await store.render("changing", {})).toBeNull();
  });

  test("a broken template is an invalid-request error, not a crash", async () => {
    const store = createTemplateStore({ dir });
    const err = await store.render("broken", {}).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("invalid");
    expect(err.message).toContain("template broken");
  });

  test("templates cannot reach prototype properties", async () => {
    writeFileSync(join(dir, "proto.txt"), "{{constructor.name}}|{{__proto__}}");
    const store = createTemplateStore({ dir });
    expect(await store.render("proto", {})).toEqual({ text: "|" });
  });
});
