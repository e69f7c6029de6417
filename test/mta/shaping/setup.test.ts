import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config/load.ts";
import { shapingFrom } from "../../../src/mta/shaping/setup.ts";
import { automationFor } from "../../../src/mta/shaping/rules.ts";

const mta = (toml: string) => {
  const file = join(mkdtempSync(join(tmpdir(), "postern-setup-")), "postern.toml");
  writeFileSync(file, toml);
  return loadConfig({ file }).mta;
};

describe("shaping from the config", () => {
  test("[mta] max_connections_per_host and messages_per_connection are the default's values", () => {
    const s = shapingFrom(mta("[mta]\nmax_connections_per_host = 2\nmessages_per_connection = 7\n"));
    expect(s.defaults).toEqual({ connections: 2, initialConnections: 2, messagesPerConnection: 7, rate: null });
    expect(shapingFrom(mta("")).defaults).toEqual({ connections: 20, initialConnections: 5, messagesPerConnection: 100, rate: null });
  });
  test("[mta.shaping.default] wins over them", () => {
    expect(shapingFrom(mta("[mta]\nmax_connections_per_host = 2\n[mta.shaping.default]\nconnections = 9\n")).defaults.connections).toBe(9);
  });
  test("a configured provider overrides a built-in one by name, keeps its match, and comes first", () => {
    const s = shapingFrom(mta("[mta.shaping.providers.gmail]\nconnections = 3\n[mta.shaping.providers.corp]\nmatch = [\"corp.example\"]\n"));
    expect(s.providers.map((p) => p.name)).toEqual(["gmail", "corp", "outlook", "yahoo", "icloud", "apple"]);
    expect(s.providers[0]).toMatchObject({ match: ["gmail.com", "googlemail.com", "google.com"], limits: { connections: 3, messagesPerConnection: 50 } });
  });
  test("configured automation is tried before the built-in rules", () => {
    const s = shapingFrom(mta("[[mta.shaping.automation]]\nprovider = \"yahoo\"\nmatch = \"TSS04\"\naction = \"throttle\"\nduration = \"5m\"\n"));
    expect(automationFor(s.automation, "yahoo", "421 4.7.0 [TSS04] x")).toMatchObject({ action: "throttle", durationMs: 300_000, builtIn: false });
  });
});
