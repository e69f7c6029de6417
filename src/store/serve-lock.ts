// One running server per data directory: a starting server takes back every claim it finds, so a
// second one beside it would send mail twice. A pid file says who runs; a dead pid's file is stale.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../core/errors.ts";

const LOCK_FILE = "serve.pid";

function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as { code?: string }).code === "EPERM"; }
}

/** Takes the data directory for this process; throws when a live server already has it. */
export function takeServeLock(dataDir: string): { release(): void } {
  const file = join(dataDir, LOCK_FILE);
  let holder = NaN;
  try { holder = Number(readFileSync(file, "utf8").trim()); } catch { /* no lock yet */ }
  if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
    throw new AppError("conflict", `another postern server (pid ${holder}) is running on ${dataDir}`);
  }
  writeFileSync(file, `${process.pid}\n`);
  return { release: () => { try { if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file); } catch { /* gone already */ } } };
}
