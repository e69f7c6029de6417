// Group commit: writes that arrive while the event loop is busy (concurrent API requests) are
// committed together in one transaction; each caller's promise resolves only after that commit,
// so "resolved" still means "on disk". A failing batch is retried one write at a time, so one
// bad write fails only its own caller.
import type { Database } from "bun:sqlite";

export function createGroupCommit<T>(db: Database, write: (item: T) => void) {
  let pending: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let isScheduled = false;

  function flush() {
    isScheduled = false;
    const batch = pending;
    pending = [];
    try {
      db.transaction(() => { for (const p of batch) write(p.item); })();
      for (const p of batch) p.resolve();
    } catch {
      for (const p of batch) {
        try { db.transaction(() => write(p.item))(); p.resolve(); } catch (e) { p.reject(e); }
      }
    }
  }

  return {
    add(item: T): Promise<void> {
      return new Promise((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (!isScheduled) { isScheduled = true; setImmediate(flush); }
      });
    },
  };
}
