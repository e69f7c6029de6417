// What one claim asks the store for: per key (recipient domain) with mail due, how many rows. A
// destination's room (its concurrency less what is in flight, within its rate) is shared among
// all its keys with mail due, in equal parts, the remainder to keys taken in turn. Many keys share
// one destination: Google Workspace domains count under gmail, 200 small domains behind one
// smarthost. Giving the whole room to the first key (which may hold one due row) left the other
// keys to later claims: in a soak at 200 msg/s over 50 domains behind one route, delivery ran at
// about 100 msg/s, one or two rows a claim, while the queue grew.

export interface ClaimPlan<D> {
  wants: { key: string; limit: number; newest: number }[];
  destOf: Map<string, D>;
  /** The earliest due time among keys not yet due whose destination has room (null: none). */
  nextDue: number | null;
}

export interface PlanInput<D> {
  /** Keys with waiting mail and their first due time. */
  keys: { key: string; nextDueAt: number }[];
  /** The key's destination; undefined while its MX look-up runs. */
  destOf: (key: string) => D | undefined;
  /** How many more rows the destination may take now. */
  roomOf: (dest: D) => number;
  /** Rows this claim may take in all. */
  room: number;
  now: number;
  /** A counter that changes between claims: which keys get the remainder, and which destination goes first. */
  turn: number;
}

export function planClaims<D>(p: PlanInput<D>): ClaimPlan<D> {
  const dueKeys = new Map<D, string[]>();
  const destOf = new Map<string, D>();
  let nextDue: number | null = null;
  for (const { key, nextDueAt } of p.keys) {
    const dest = p.destOf(key);
    if (dest === undefined || p.roomOf(dest) <= 0) continue;
    if (nextDueAt > p.now) { if (nextDue === null || nextDueAt < nextDue) nextDue = nextDueAt; continue; }
    const list = dueKeys.get(dest);
    if (list) list.push(key); else dueKeys.set(dest, [key]);
    destOf.set(key, dest);
  }
  const wants: { key: string; limit: number; newest: number }[] = [];
  const dests = rotate([...dueKeys.keys()], p.turn);
  let room = p.room;
  for (const dest of dests) {
    if (room <= 0) break;
    const keys = rotate(dueKeys.get(dest)!, p.turn);
    const share = Math.min(p.roomOf(dest), room);
    const each = Math.floor(share / keys.length);
    const extra = share - each * keys.length;
    keys.forEach((key, i) => {
      const limit = each + (i < extra ? 1 : 0);
      if (limit > 0) wants.push({ key, limit, newest: newestOf(limit, p.turn) });
    });
    room -= share;
  }
  return { wants, destOf, nextDue };
}

/**
 * Half of a key's claim takes its most recently due rows (an odd one every other turn): when a
 * million scheduled come due at one instant, mail accepted since goes out beside them rather than
 * after them, and the backlog still drains at the rate the live mail leaves free (#41).
 */
export const newestOf = (limit: number, turn: number) => (limit >> 1) + (limit & 1 & turn);

function rotate<T>(list: T[], turn: number): T[] {
  if (list.length < 2) return list;
  const at = turn % list.length;
  return [...list.slice(at), ...list.slice(0, at)];
}
