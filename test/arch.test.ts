// Import boundaries of design.md §3.1: the layers point inward and only src/app.ts picks the
// concrete store. A forbidden import anywhere fails this test with the file and the import.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { formatNames } from "../src/webhooks/registry.ts";

const ROOT = join(import.meta.dir, "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** A source line without its comment (// …, /* … on one line, a * line of a block comment). */
const withoutComments = (line: string) => line.replace(/\/\/.*$|\/\*.*?(\*\/|$)|^\s*\*.*$/g, "");

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]!)
    .map((spec) => (spec.startsWith(".") ? relative(ROOT, join(file, "..", spec)) : spec));
}

const RULES: { layer: string; forbidden: RegExp[] }[] = [
  // The address parser is the core's own (src/core/address/): validation, tracking and the rest sit above.
  // Config reads the core's value parsers (src/core/values/), never the reverse: no arrow runs upward.
  { layer: "src/core", forbidden: [/^elysia/, /^bun:sqlite/, /^nodemailer/, /^smtp-server/, /^src\/(api|mta|inbound|events|webhooks|store\/sqlite|validation|tracking|net|config)\//, /^cli\//] },
  { layer: "src/validation", forbidden: [/^elysia/, /^bun:sqlite/, /^nodemailer/, /^src\/(api|mta|inbound|events|webhooks|store)\//, /^cli\//] },
  { layer: "src/api", forbidden: [/^bun:sqlite/, /^nodemailer/, /^smtp-server/, /^src\/store\/sqlite\//, /^src\/(mta|inbound)\//, /^cli\//] },
  { layer: "src/mta", forbidden: [/^elysia/, /^src\/api\//, /^cli\//, /^src\/store\/sqlite\//] },
  { layer: "src/inbound", forbidden: [/^elysia/, /^src\/api\//, /^cli\//, /^src\/store\/sqlite\//] },
  { layer: "src/webhooks", forbidden: [/^elysia/, /^src\/api\//, /^cli\//, /^src\/store\/sqlite\//, /^src\/(mta|inbound|tracking|validation)\//] },
  // Outbound network guards: below everything that calls out, above nothing but DNS.
  { layer: "src/net", forbidden: [/^elysia/, /^bun:sqlite/, /^src\/(api|mta|inbound|events|webhooks|store|core|tracking|validation)\//, /^cli\//] },
  { layer: "src/tracking", forbidden: [/^elysia/, /^bun:sqlite/, /^src\/api\//, /^cli\//, /^src\/store\/sqlite\//] },
  { layer: "src/alerts", forbidden: [/^elysia/, /^bun:sqlite/, /^src\/(api|store|mta|inbound|tracking|validation)\//, /^cli\//] },
  // The doctor looks at the world through dns/ and net/ and keeps its history through the port.
  { layer: "src/doctor", forbidden: [/^elysia/, /^bun:sqlite/, /^src\/(api|store|mta|inbound|webhooks|tracking|validation)\//, /^cli\//] },
  { layer: "src/ops", forbidden: [/^elysia/, /^bun:sqlite/, /^src\/(api|store|mta|inbound|webhooks)\//, /^cli\//] },
  { layer: "cli", forbidden: [/^elysia/, /^bun:sqlite/, /^src\/store\/sqlite\//, /^src\/api\//] },
];

describe("import boundaries", () => {
  for (const rule of RULES) {
    test(`${rule.layer} imports nothing its layer may not`, () => {
      const bad = files(join(ROOT, rule.layer)).flatMap((f) =>
        importsOf(f).filter((i) => rule.forbidden.some((re) => re.test(i))).map((i) => `${relative(ROOT, f)} → ${i}`));
      expect(bad).toEqual([]);
    });
  }
  test("src/store/ holds engines only: nothing but src/app.ts imports from it", () => {
    const bad = [...files(join(ROOT, "src")), ...files(join(ROOT, "cli"))]
      .filter((f) => !relative(ROOT, f).startsWith("src/store/") && relative(ROOT, f) !== "src/app.ts")
      .filter((f) => importsOf(f).some((i) => i.startsWith("src/store/"))).map((f) => relative(ROOT, f));
    expect(bad).toEqual([]);
  });
  test("only src/dns/ speaks the DNS wire protocol (everything else takes the shared Resolver)", () => {
    const bad = [...files(join(ROOT, "src")), ...files(join(ROOT, "cli"))].filter((f) => !relative(ROOT, f).startsWith("src/dns/"))
      .filter((f) => importsOf(f).some((i) => i === "dns-packet" || i === "node:dgram")).map((f) => relative(ROOT, f));
    expect(bad).toEqual([]);
  });
  test("nothing in src/ reads the clock or DNS directly except dns.ts and app.ts", () => {
    const bad = files(join(ROOT, "src")).filter((f) => !/src\/(dns|app|log)\.ts$/.test(f) && !f.includes("/bench/"))
      .filter((f) => /\bDate\.now\(\)|from "node:dns/.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
    expect(bad).toEqual([]);
  });
});

describe("the webhook format registry", () => {
  test("outside webhooks/formats/ and the registry, webhooks/ never branches on a format name", () => {
    const names = /["'](mailgun|sendgrid|sparkpost|native|bot)["']/;
    const bad = files(join(ROOT, "src/webhooks")).filter((f) => !f.includes("/formats/") && !f.endsWith("/registry.ts"))
      .filter((f) => names.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
    expect(bad).toEqual([]);
  });
  test("outside webhooks/, only the registry's FORMAT spells a format: a line about a format never quotes a format's name", () => {
    const quoted = new RegExp(`["'](${formatNames().join("|")})["']`);
    // Surfaces' own names (Elysia plugins, Surface, a message's source) are not formats: only a line
    // that speaks of a format (format, FORMAT, a sample or ping call) counts.
    const aboutFormat = /\bformats?\b|\.(sample|ping)\(/i;
    // Names that are nothing but a format's (the inbound ones) count anywhere.
    const formatOnly = new RegExp(`["'](${formatNames().filter((n) => n.includes("-")).join("|")})["']`);
    const bad = ["src/api", "src/core", "src/inbound", "src/mta", "src/tracking", "cli"].flatMap((dir) => files(join(ROOT, dir)))
      .flatMap((f) => readFileSync(f, "utf8").split("\n").map((line, i) => ({ f, i, line: withoutComments(line) })))
      .filter(({ line }) => (aboutFormat.test(line) && quoted.test(line)) || formatOnly.test(line))
      .map(({ f, i, line }) => `${relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
    expect(bad).toEqual([]);
  });
});

describe("one writer of events", () => {
  test("only src/store/ and the recorder call the port methods that write events", () => {
    const writes = /\.(applyOutcomes|createSend|purgeQueue)\(/;
    const bad = [...files(join(ROOT, "src")), ...files(join(ROOT, "cli"))]
      .filter((f) => !relative(ROOT, f).startsWith("src/store/") && relative(ROOT, f) !== "src/core/recorder.ts")
      .filter((f) => writes.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
    expect(bad).toEqual([]);
  });
});

describe("size and cycles", () => {
  const sources = () => [...files(join(ROOT, "src")), ...files(join(ROOT, "cli"))];
  test("no source file is over 300 lines", () => {
    const long = sources().filter((f) => readFileSync(f, "utf8").split("\n").length > 301)
      .map((f) => `${relative(ROOT, f)}: ${readFileSync(f, "utf8").split("\n").length} lines`);
    expect(long).toEqual([]);
  });
  test("no import cycles between files", () => {
    const graph = new Map(sources().map((f) => [relative(ROOT, f), importsOf(f).filter((i) => i.endsWith(".ts"))]));
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === "done") return;
      if (state.get(f) === "open") { cycles.push([...path.slice(path.indexOf(f)), f].join(" → ")); return; }
      state.set(f, "open");
      for (const next of graph.get(f) ?? []) if (graph.has(next)) visit(next, [...path, f]);
      state.set(f, "done");
    };
    for (const f of graph.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});

describe("one shape for the surfaces", () => {
  const SURFACES = ["sendgrid", "mailgun", "sparkpost", "native", "console"];
  for (const s of SURFACES) {
    test(`api/${s}: routes.ts only mounts; policy.ts and errors.ts exist`, () => {
      const dir = join(ROOT, "src/api", s);
      const routes = readFileSync(join(dir, "routes.ts"), "utf8");
      expect(routes.match(/\.(get|post|put|patch|delete|all)\(/g) ?? []).toEqual([]);
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(["routes.ts", "policy.ts", "errors.ts"]));
    });
  }
  test("vendor names stay out of core code, in any case (comments may name them; exceptions listed here, see docs/architecture.md)", () => {
    // A bounce class's published text (SparkPost's words for class 25).
    const EXCEPTIONS = ["src/core/bounce/classes.ts"];
    const vendor = /sendgrid|mailgun|sparkpost/i;
    const bad = files(join(ROOT, "src/core")).filter((f) => !EXCEPTIONS.includes(relative(ROOT, f)))
      .flatMap((f) => readFileSync(f, "utf8").split("\n").map((line, i) => ({ f, i, line })))
      .filter(({ line }) => vendor.test(withoutComments(line)))
      .map(({ f, i, line }) => `${relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
    expect(bad).toEqual([]);
  });
});
