// The blocklist check's verdict per subject: listed anywhere is an error, otherwise unknown wins over clear.
import { expect, test } from "bun:test";
import { judgeBlocklist } from "../../../src/doctor/checks/blocklist.ts";
import type { BlocklistAnswer } from "../../../src/doctor/types.ts";

const e = (zone: string, state: BlocklistAnswer["state"], cause = ""): BlocklistAnswer =>
  ({ subject: "192.0.2.1", kind: "ip", zone, state, answer: state === "listed" ? "127.0.0.2" : "", cause });

test("listed → error naming the zones; some unknown → unknown with the causes; all clear → ok", () => {
  expect(judgeBlocklist([e("a", "clear"), e("b", "listed"), e("c", "unknown", "SERVFAIL")], "192.0.2.1"))
    .toMatchObject({ severity: "error", summary: expect.stringMatching(/b \(127\.0\.0\.2\)/), data: { kind: "ip", entries: expect.any(Array) } });
  expect(judgeBlocklist([e("a", "clear"), e("c", "unknown", "SERVFAIL")], "192.0.2.1")).toMatchObject({ severity: "unknown", summary: expect.stringMatching(/c: SERVFAIL/) });
  expect(judgeBlocklist([e("a", "clear")], "192.0.2.1").severity).toBe("ok");
});
