// The outcome journal: `<zone>.outcomes` beside the zone's file, while a server holds the data
// directory. Delivery outcomes wait up to a commit interval for the file's shared transaction
// (group-commit.ts); a receiver that has answered 250 meanwhile must not get the message again
// after a kill -9. So each outcome is first appended here, one write() and no fsync, like the
// commits themselves (synchronous = NORMAL: safe from a crash of the process, not of the machine),
// the way Postfix marks a recipient done in its queue file before it moves on. The next server to
// take the directory applies what the journal holds, in order, before it releases any claim.
// Applying an outcome twice is harmless: the update sets the row to the outcome's values and the
// events are inserted only once (their ids). The file is emptied whenever every outcome it holds
// is committed and it has grown past TRUNCATE_AT. An entry that cannot be written (a full disk) is
// left out and the file cut back to its last whole line: the commit, not the journal, is what
// makes an outcome durable, so the outcome still goes to the database as before.
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";

const TRUNCATE_AT = 256 * 1024;

export interface OutcomeJournal {
  /** Appends one entry; call the returned function once its commit is done (false: it failed). */
  append(entry: unknown): (committed: boolean) => void;
  /**
   * Closes the file; true when it must be kept for the next server: an entry's commit failed (a
   * full disk at a stop) since the file was last emptied.
   */
  close(): boolean;
}

/** The entries a journal file holds, oldest first; a line cut short by a kill is skipped. */
export function readJournal(path: string): unknown[] {
  if (!existsSync(path)) return [];
  const out: unknown[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line) continue;
    try { out.push(JSON.parse(line)); } catch { /* the last line, cut short by a kill */ }
  }
  return out;
}

/** Opens (creating) the journal at `path`, emptied: replay it with readJournal first. */
export function openJournal(path: string): OutcomeJournal {
  const fd = openSync(path, "a");
  ftruncateSync(fd, 0);
  let open = 0;
  /** Bytes of whole lines in the file. */
  let size = 0;
  let failed = false;
  const nothing = () => {};
  return {
    append(entry) {
      const line = Buffer.from(`${JSON.stringify(entry)}\n`);
      try {
        if (writeSync(fd, line) !== line.length) throw new Error("short write");
        size += line.length;
      } catch {
        try { ftruncateSync(fd, size); } catch { /* the next entry's line then starts mid-line and is skipped */ }
        return nothing;
      }
      open++;
      let done = false;
      return (committed) => {
        if (done) return;
        done = true;
        if (!committed) failed = true;
        // O_APPEND: after the cut, the next write goes to the start again. A failed outcome is
        // appended again when the outcome writer retries it.
        if (--open === 0 && size > TRUNCATE_AT) { try { ftruncateSync(fd, 0); size = 0; failed = false; } catch { /* emptied at the next chance */ } }
      };
    },
    close() { closeSync(fd); return failed || open > 0; },
  };
}
