// The fold retention applies to deleted events: counts per hour, key and dimensions, one row per
// tag without the other dimensions, bytes of deliveries, firsts for opens recorded without them.
import { expect, test } from "bun:test";
import type { MessageEvent } from "../../../src/core/model.ts";
import { foldStats } from "../../../src/core/stats/rollup.ts";

const H = 3_600_000;
const T = 500_000 * H;
let seq = 0;
const ev = (type: MessageEvent["type"], at: number, extra: Partial<MessageEvent> = {}): MessageEvent =>
  ({ id: `e${String(seq++).padStart(3, "0")}`, type, messageId: "m", recipient: "A@Gmail.test", domain: "a.test", timestamp: at, tags: ["t"], metadata: {}, ...extra });
const message = { size: 900, extra: { campaignId: "spring", templateId: "tpl" } };

test("counts per hour, key and dimensions; tag rows; bytes of deliveries", () => {
  const rows = foldStats([{ event: ev("delivered", T + 1), message }, { event: ev("delivered", T + 2, { recipient: "b@gmail.test" }), message },
    { event: ev("delivered", T + H + 5, { tags: ["t", "t"] }), message: null }]);
  const show = rows.map((r) => `${(r.bucket - T) / H} ${r.tag || "-"} ${r.rcptDomain || "-"} ${r.campaign || "-"} ${r.template || "-"} ${r.ipPool || "-"} ${r.stat} ${r.n} ${r.bytes}`).sort();
  expect(show).toEqual(["0 - gmail.test spring tpl - delivered 2 1800", "0 t - - - - delivered 2 0", "1 - gmail.test - - - delivered 1 0", "1 t - - - - delivered 1 0"]);
});

test("opens recorded without firsts get them from the opens before them in the batch, whatever the batch's order", () => {
  const second = ev("opened", T + 20);
  const first = ev("opened", T + 10);
  const flagged = ev("opened", T + 30, { firsts: ["once"] });
  const stats = foldStats([second, first, flagged].map((event) => ({ event, message: null }))).filter((r) => r.tag === "").map((r) => `${r.stat} ${r.n}`).sort();
  expect(stats).toEqual(["opened;firsts= 1", "opened;firsts=once 1", "opened;firsts=once+human+engaged+human-engaged 1"]);
});
