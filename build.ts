// Builds the single executable dist/postern (bun build --compile): cli/main.ts with every
// dependency, the config template and the migrations embedded; it runs with no node_modules.
// The signing worker is a second entrypoint: Bun bundles workers only when listed (see
// src/mta/message/workers.ts for how the binary addresses it). `bun run build.ts [outfile]`.
import { dirname } from "node:path";
import { mkdirSync } from "node:fs";

const outfile = process.argv[2] ?? "dist/postern";
// `postern --version` prints the release it was built from (cli/version.ts reads git from source).
const { release } = await import("./cli/version.ts");
const define = ["--define", `POSTERN_RELEASE=${JSON.stringify(release())}`];
mkdirSync(dirname(outfile), { recursive: true });
const result = Bun.spawnSync(["bun", "build", "--compile", "--minify-syntax", "--sourcemap=none", ...define, "cli/main.ts", "src/mta/message/sign-worker.ts", "--outfile", outfile], {
  stdout: "inherit",
  stderr: "inherit",
});
if (result.exitCode !== 0) {
  console.error("build failed");
  process.exit(result.exitCode ?? 1);
}
console.log(`built ${outfile}`);
