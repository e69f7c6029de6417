// TLS items in control.sqlite (the port's TlsStateStore). One server per data directory, so the
// lock is a queue inside this process.
import type { Database } from "bun:sqlite";
import type { TlsStateStore } from "../../core/store-port.ts";

export function createTlsStateStore(db: Database): TlsStateStore {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    async getTlsItem(name) { return ((db.query("SELECT content FROM tls_items WHERE name = ?").get(name) as { content: string } | null)?.content) ?? null; },
    async putTlsItem(name, value, now) {
      db.query("INSERT INTO tls_items (name, content, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at")
        .run(name, value, now);
    },
    async deleteTlsItem(name) { db.query("DELETE FROM tls_items WHERE name = ?").run(name); },
    withTlsLock<T>(fn: () => Promise<T>): Promise<T> {
      const run = tail.then(fn, fn);
      tail = run.catch(() => {});
      return run;
    },
  };
}
