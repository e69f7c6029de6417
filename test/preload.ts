// Runs once per `bun test` process (bunfig.toml [test] preload), before any test file: makes sure
// the Debian packages the suite uses are there (test/helpers/system-packages.ts), so a fresh
// clone's `./install.sh && bun test` needs nothing else.
import { afterAll } from "bun:test";
import { ensureSystemPackages } from "./helpers/system-packages.ts";

const error = ensureSystemPackages();
if (error) {
  console.error(`test preload: ${error}`);
  process.exit(1);
}

// After every file: the PostgreSQL clusters the run started (test/helpers/postgres.ts) stop with it. Imported only
// here, after the packages are in: the helper looks for PostgreSQL's binaries when it is first loaded.
afterAll(async () => (await import("./helpers/postgres.ts")).stopAllClusters());
