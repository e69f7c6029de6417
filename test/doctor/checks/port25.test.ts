// port25's judgement: greeted, refused and silent probes.
import { expect, test } from "bun:test";
import { judgePort25 } from "../../../src/doctor/checks/port25.ts";

test("a 220 is ok, another code warn, a refusal error, silence unknown (never ok)", () => {
  expect(judgePort25({ kind: "greeted", code: 220, line: "220 mx ESMTP", ms: 30 }, "mx:25").severity).toBe("ok");
  expect(judgePort25({ kind: "greeted", code: 554, line: "554 go away", ms: 30 }, "mx:25").severity).toBe("warn");
  expect(judgePort25({ kind: "refused", error: "ECONNREFUSED" }, "mx:25")).toMatchObject({ severity: "error", summary: expect.stringMatching(/ECONNREFUSED/) });
  const silent = judgePort25({ kind: "silent", stage: "connect", ms: 8000 }, "mx:25");
  expect(silent).toMatchObject({ severity: "unknown", fix: expect.stringMatching(/port 25/) });
  expect(judgePort25({ kind: "unresolved", cause: "ETIMEOUT" }, "mx:25").severity).toBe("unknown");
});
