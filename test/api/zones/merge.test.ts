import { describe, expect, test } from "bun:test";
import { mergeList, sumAnswers, sumJson, type ListMerge } from "../../../src/api/zones/merge.ts";

const q = (s = "") => new URLSearchParams(s);
type Item = { at: number; id: string };
const byAtDesc = (a: unknown, b: unknown) => (b as Item).at - (a as Item).at || (b as Item).id.localeCompare((a as Item).id);

describe("mergeList", () => {
  test("offset paging: the page is cut from the merged order of every zone's first offset+limit items", () => {
    const m: ListMerge = { kind: "list", items: (b) => b as unknown[], order: byAtDesc, build: (page) => page,
      paging: { type: "offset", limitParam: "limit", offsetParam: "offset", defaultLimit: 500, maxLimit: 500 } };
    const us = [{ at: 9, id: "a" }, { at: 5, id: "b" }, { at: 1, id: "c" }];
    const eu = [{ at: 8, id: "d" }, { at: 7, id: "e" }, { at: 2, id: "f" }];
    expect((mergeList(m, [us, eu], q("limit=2&offset=1")) as Item[]).map((x) => x.id)).toEqual(["d", "e"]);
    expect((mergeList(m, [us, eu], q("limit=10")) as Item[]).map((x) => x.id)).toEqual(["a", "d", "e", "b", "f", "c"]);
  });

  test("cursor paging: the next cursor is the last item's position, items sharing it stay on one page, a zone's own 'more' counts", () => {
    const m: ListMerge = { kind: "list", items: (b) => (b as { r: unknown[] }).r, order: (a, b) => (a as Item).id.localeCompare((b as Item).id),
      paging: { type: "cursor", limit: (p) => Number(p.get("n")), positionOf: (x) => (x as Item).id, hasMore: (b) => (b as { more?: boolean }).more === true },
      build: (page, { next }) => ({ page: page.map((x) => (x as Item).id), next }) };
    const us = { r: [{ at: 0, id: "a" }, { at: 1, id: "b" }] };
    const eu = { r: [{ at: 0, id: "b" }, { at: 2, id: "c" }] };
    expect(mergeList(m, [us, eu], q("n=2"))).toEqual({ page: ["a", "b", "b"], next: "b" });
    expect(mergeList(m, [us, eu], q("n=4"))).toEqual({ page: ["a", "b", "b", "c"], next: null });
    expect(mergeList(m, [us, { ...eu, more: true }], q("n=4"))).toEqual({ page: ["a", "b", "b", "c"], next: "c" });
  });

  test("identity: an entry listed by two zones shows once, the first in order kept", () => {
    const m: ListMerge = { kind: "list", items: (b) => b as unknown[], order: byAtDesc, identity: (x) => (x as Item).id, build: (page) => page };
    expect(mergeList(m, [[{ at: 1, id: "x" }], [{ at: 3, id: "x" }, { at: 2, id: "y" }]], q())).toEqual([{ at: 3, id: "x" }, { at: 2, id: "y" }]);
  });
});

describe("sums", () => {
  test("counters add up; rows are matched by their text fields; a series of counters adds position by position", () => {
    const us = { results: [{ ts: "2026-01-01T00:00", count_sent: 2 }, { ts: "2026-01-01T01:00", count_sent: 1 }], series: [1, 2, 3] };
    const eu = { results: [{ ts: "2026-01-01T01:00", count_sent: 4 }, { ts: "2026-01-01T02:00", count_sent: 5 }], series: [10, 20, 30] };
    expect(sumJson(us, eu)).toEqual({ results: [{ ts: "2026-01-01T00:00", count_sent: 2 }, { ts: "2026-01-01T01:00", count_sent: 5 },
      { ts: "2026-01-01T02:00", count_sent: 5 }], series: [11, 22, 33] });
    expect(sumJson([{ date: "d1", stats: [{ metrics: { opens: 1 } }] }], [{ date: "d1", stats: [{ metrics: { opens: 2 } }] }]))
      .toEqual([{ date: "d1", stats: [{ metrics: { opens: 3 } }] }]);
  });

  test("fields that are no counters (keep) come from the local answer", () => {
    const merged = sumAnswers({ kind: "sum", keep: ["step", "buckets"] }, [{ step: 3600, buckets: [0, 3600], series: { sent: [1, 1] } },
      { step: 3600, buckets: [0, 3600], series: { sent: [2, 0] } }]);
    expect(merged).toEqual({ step: 3600, buckets: [0, 3600], series: { sent: [3, 1] } });
  });
});
