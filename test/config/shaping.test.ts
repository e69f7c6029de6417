import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/load.ts";

const load = (toml: string) => {
  const file = join(mkdtempSync(join(tmpdir(), "postern-shaping-")), "postern.toml");
  writeFileSync(file, toml);
  return loadConfig({ file });
};
const problems = (toml: string) => { try { load(toml); return []; } catch (e) { return (e as ConfigError).problems; } };

describe("[mta.shaping]", () => {
  test("default, providers and automation are read", () => {
    const c = load(`[mta.shaping.default]\nconnections = 30\nrate = "100/s"\n[mta.shaping.providers.corp]\nmatch = ["Corp.Example"]\nconnections = 3\n` +
      `[[mta.shaping.automation]]\nprovider = "corp"\nmatch = "slow down"\naction = "throttle"\nduration = "10m"\n`);
    expect(c.mta.shaping.default).toEqual({ connections: 30, rate: { count: 100, perMs: 1000, text: "100/s" } });
    expect(c.mta.shaping.providers.corp).toEqual({ match: ["corp.example"], connections: 3 });
    expect(c.mta.shaping.automation).toEqual([{ provider: "corp", match: "slow down", action: "throttle", duration: 600_000 }]);
  });
  test("nothing configured: empty", () => {
    expect(load("[mta]\nhostname = \"x.test\"\n").mta.shaping).toEqual({ default: {}, providers: {}, automation: [] });
  });
  const bad: [string, string, string][] = [
    ["a bad rate", `[mta.shaping.default]\nrate = "fast"\n`, "mta.shaping.default.rate"],
    ["zero connections", `[mta.shaping.providers.gmail]\nconnections = 0\n`, "mta.shaping.providers.gmail.connections"],
    ["an unknown key", `[mta.shaping.default]\nconections = 3\n`, "mta.shaping.default.conections: unknown key"],
    ["match on the default", `[mta.shaping.default]\nmatch = ["x.test"]\n`, "mta.shaping.default.match: unknown key"],
    ["a bad regular expression", `[[mta.shaping.automation]]\nmatch = "(["\naction = "suspend"\nduration = "1h"\n`, "mta.shaping.automation[0]: match: not a regular expression"],
    ["an unknown action", `[[mta.shaping.automation]]\nmatch = "x"\naction = "pause"\nduration = "1h"\n`, "action: expected \"suspend\" or \"throttle\""],
    ["a bad duration", `[[mta.shaping.automation]]\nmatch = "x"\naction = "suspend"\nduration = "soon"\n`, "duration: expected a duration"],
  ];
  for (const [what, toml, want] of bad) test(`${what} is refused with its key`, () => expect(problems(toml).join("\n")).toContain(want));
});
