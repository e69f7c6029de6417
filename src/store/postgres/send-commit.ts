// Group commit of sends: the sends accepted in one turn of the event loop (concurrent API
// requests) are written by one statement (writes.ts), one round trip and one commit for the
// burst instead of a transaction per send; each caller's promise resolves only after that commit,
// so "resolved" still means durable. A failing burst is written again one send at a time, so one
// bad send fails only its own caller. As in the SQLite store (sqlite/group-commit.ts).
import type { NewSend } from "../../core/store-port.ts";
import type { Sql } from "./db.ts";
import { addUnpositionedEvents, positionEvents } from "./events.ts";
import { addSendRows } from "./sends.ts";
import { addSuppressionWrites } from "./suppressions.ts";
import { Writes } from "./writes.ts";

/**
 * One statement writing `sends` whole, committed synchronously (a 2xx means durable); their
 * events without positions, positioned by a second statement once committed (events.ts): the
 * event counter is never held while a commit waits for the disk.
 */
async function writeSends(sql: Sql, sends: NewSend[]): Promise<void> {
  const all = (f: (s: NewSend) => unknown[]) => sends.flatMap(f);
  const merged = {
    messages: all((s) => s.messages), recipients: all((s) => s.recipients), attachments: all((s) => s.attachments),
  } as NewSend;
  const w = new Writes();
  addSendRows(w, merged);
  addSuppressionWrites(w, sends.flatMap((s) => s.suppressions ?? []));
  const events = sends.flatMap((s) => s.events);
  addUnpositionedEvents(w, events);
  await w.run(sql);
  // The sends are on disk: a failure here must not fail them (a retried request would send twice).
  // Events left unpositioned are positioned by the next read of the fan-out.
  if (events.length) await positionEvents(sql, events.map((e) => e.id)).catch(() => {});
}

export function createSendCommit(sql: Sql) {
  let pending: { send: NewSend; resolve: () => void; reject: (e: unknown) => void }[] = [];

  async function flush() {
    const batch = pending;
    pending = [];
    try {
      await writeSends(sql, batch.map((p) => p.send));
      for (const p of batch) p.resolve();
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      // In order, so the sends that succeed keep their order of acceptance.
      for (const p of batch) await writeSends(sql, [p.send]).then(p.resolve, p.reject);
    }
  }

  return {
    add(send: NewSend): Promise<void> {
      return new Promise((resolve, reject) => {
        pending.push({ send, resolve, reject });
        if (pending.length === 1) setImmediate(() => void flush());
      });
    },
  };
}
