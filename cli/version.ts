// The release this postern is: the compiled binary carries it from its build (build.ts defines
// POSTERN_RELEASE: package version + `git describe`); from source it is read at run time from the
// checkout's git, so neither prints a constant that outlives the code it names.
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };

declare const POSTERN_RELEASE: string | undefined;

/** `git describe --always --dirty` of `dir`'s checkout; null outside one (or without git). */
export function describeCheckout(dir: string): string | null {
  try {
    const r = Bun.spawnSync(["git", "describe", "--tags", "--always", "--dirty"], { cwd: dir, stdout: "pipe", stderr: "ignore" });
    const text = r.stdout.toString().trim();
    return r.exitCode === 0 && text ? text : null;
  } catch {
    return null;
  }
}

/** "0.1.0 (7b98295)": the package version and the commit it was built from. */
export function releaseOf(version: string, describe: string | null): string {
  return describe ? `${version} (${describe})` : version;
}

export function release(): string {
  if (typeof POSTERN_RELEASE === "string" && POSTERN_RELEASE) return POSTERN_RELEASE;
  return releaseOf(pkg.version, describeCheckout(join(import.meta.dir, "..")));
}
