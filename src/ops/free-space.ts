// Free space on the filesystem that holds a directory, as an unprivileged writer sees it (statfs
// bavail: the blocks root keeps in reserve are not ours to fill).
import { statfsSync } from "node:fs";

/** A reader of free bytes under `dir`; null when the filesystem cannot be asked (the guard then trusts writes). */
export function freeSpaceOf(dir: string): () => number | null {
  return () => {
    try {
      const s = statfsSync(dir);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return null;
    }
  };
}
