// What Linux says about a running process (/proc).
import { readFileSync } from "node:fs";

/** A process's environment as it was given at its (last) exec. */
export const environOf = (pid: number): Record<string, string> => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, "latin1").split("\0")
  .filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
