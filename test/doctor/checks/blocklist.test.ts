// The blocklist check's verdict per subject: listed anywhere is an error, otherwise unknown wins over clear.
import { expect, test } from "bun:test";
import { judgeBlocklist } from "../../../src/doctor/checks/blocklist.ts";
import type { BlocklistAnswer } from "../../../src/doctor/types.ts";

const e = (zone: string, state: BlocklistAnswer["state"], cause = ""): BlocklistAnswer =>
  ({ subject: "192.0.2.1", kind: "ip", zone, state, answer: state === "listed" ? "127.0.0.2" : "", cause });

test("listed → error naming the name and zones; some unknown → unknown with the causes; all clear → ok", () => {
  const v = judgeBlocklist([e("a", "clear"), e("b", "listed"), e("c", "unknown", "SERVFAIL")], "ip");
  expect(v).toMatchObject({ severity: "error", summary: expect.stringMatching(/192\.0\.2\.1 in b \(127\.0\.0\.2\)/) });
  expect((v.data as { entries: unknown[] }).entries).toEqual([{ subject: "192.0.2.1", zone: "a", state: "clear", answer: "", cause: "" },
    { subject: "192.0.2.1", zone: "b", state: "listed", answer: "127.0.0.2", cause: "" }, { subject: "192.0.2.1", zone: "c", state: "unknown", answer: "", cause: "SERVFAIL" }]);
  expect(judgeBlocklist([e("a", "clear"), e("c", "unknown", "SERVFAIL")], "ip")).toMatchObject({ severity: "unknown", summary: expect.stringMatching(/in c: SERVFAIL/) });
  expect(judgeBlocklist([e("a", "clear")], "ip").severity).toBe("ok");
});
