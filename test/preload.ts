// Runs once per `bun test` process (bunfig.toml [test] preload), before any test file: makes sure
// the Debian packages the suite uses are there (test/helpers/system-packages.ts), so a fresh
// clone's `./install.sh && bun test` needs nothing else.
import { ensureSystemPackages } from "./helpers/system-packages.ts";

const error = ensureSystemPackages();
if (error) {
  console.error(`test preload: ${error}`);
  process.exit(1);
}
