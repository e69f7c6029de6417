// Several writes as one statement: each write is a data-modifying CTE of one `WITH … SELECT 1`,
// sent in one round trip and committed as the statement's own transaction. A transaction of
// separate statements costs a round trip each (BEGIN, the writes, COMMIT), and on a busy node
// every round trip waits for a turn of its event loop: delivery outcomes written that way sat
// 20–130 ms between the destination's 250 and the commit (the window in which a kill -9 delivers
// them twice), and the event counter's row lock (events.ts) was held across the client's turns,
// so the other nodes' writes queued behind it. In one statement the lock is held only while the
// server runs it. The CTEs see one snapshot and not each other's rows: only writes that do not
// read each other's effects go together.
import type { Sql } from "./db.ts";

export class Writes {
  private readonly ctes: string[] = [];
  private readonly settings: string[] = [];
  readonly params: unknown[] = [];

  /** Binds `value` as the next parameter and returns its placeholder ($n). */
  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds one write (INSERT/UPDATE, possibly with RETURNING) and returns the name to read it by. */
  add(text: string): string {
    const name = `w${this.ctes.length}`;
    this.ctes.push(`${name} AS (${text})`);
    return name;
  }

  /**
   * Sets `name` for this statement's transaction only, to `value` (an SQL expression, which may
   * read the rows as they were before the writes): set_config's local setting holds until the
   * commit, so it can choose how the statement commits.
   */
  setLocal(name: string, value: string): void {
    this.settings.push(`s${this.settings.length} AS (SELECT set_config(${this.bind(name)}::text, ${value}, true))`);
  }

  get empty(): boolean { return this.ctes.length === 0; }

  /** Runs every write added, in one statement (an implicit transaction); nothing when none were. */
  async run(sql: Sql): Promise<void> {
    if (this.empty) return;
    // A CTE that writes nothing runs only when read: the settings are read by the final SELECT.
    const from = this.settings.length ? ` FROM ${this.settings.map((_, i) => `s${i}`).join(", ")}` : "";
    await sql.unsafe(`WITH ${[...this.settings, ...this.ctes].join(",\n")} SELECT 1${from}`, this.params as never[]);
  }
}
