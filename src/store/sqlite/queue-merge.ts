// The first `limit` waiting rows in due order over every key, read from recipients_key_due a page
// per key at a time. Reading the first `limit` rows of every key and sorting them read up to
// keys × limit rows: with a million scheduled over 200 domains, a million rows and 400 MB every
// minute for the alerts' queue age (#41). Here a key is read again only while its last row read
// could still come before the limit-th row of all read so far.
type Row = Record<string, unknown>;
/** Where a key's next page starts: after this due time and rowid. */
export interface After { t: number; rid: number }

const before = (a: Row, b: Row) =>
  (a.next_attempt_at as number) - (b.next_attempt_at as number) || (a.rid as number) - (b.rid as number);

interface KeyPages { domain: string; rows: Row[]; more: boolean; page: number }

/** `page(domain, after, n)`: up to n of the key's rows after `after`, in (next_attempt_at, rowid) order, each with its `rid`. */
export function mergeKeyPages(domains: string[], limit: number, page: (domain: string, after: After, n: number) => Row[]): Row[] {
  if (limit <= 0 || !domains.length) return [];
  const first = Math.max(1, Math.min(limit, Math.ceil(limit / domains.length)));
  const keys: KeyPages[] = domains.map((domain) => ({ domain, rows: [], more: true, page: first }));
  const read = (k: KeyPages) => {
    const last = k.rows[k.rows.length - 1];
    const got = page(k.domain, last ? { t: last.next_attempt_at as number, rid: last.rid as number } : { t: -Infinity, rid: 0 }, k.page);
    k.rows.push(...got);
    k.more = got.length === k.page;
    k.page = Math.min(limit, k.page * 2);
  };
  let wanted = keys;
  for (;;) {
    for (const k of wanted) read(k);
    const all = keys.flatMap((k) => k.rows).sort(before);
    const edge = all.length >= limit ? all[limit - 1] : undefined;
    // A key with more rows counts while its last row read is not after the edge (or no edge yet).
    wanted = keys.filter((k) => k.more && (!edge || before(k.rows[k.rows.length - 1]!, edge) < 0));
    if (!wanted.length) return all.slice(0, limit);
  }
}
