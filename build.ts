// Builds the single executable dist/postern (bun build --compile): cli/main.ts with every
// dependency, the config template and the migrations embedded; it runs with no node_modules.
import { mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const result = Bun.spawnSync(["bun", "build", "--compile", "--minify-syntax", "--sourcemap=none", "cli/main.ts", "src/mta/sign-worker.ts", "--outfile", "dist/postern"], {
  stdout: "inherit",
  stderr: "inherit",
});
if (result.exitCode !== 0) {
  console.error("build failed");
  process.exit(result.exitCode ?? 1);
}
console.log("built dist/postern");
