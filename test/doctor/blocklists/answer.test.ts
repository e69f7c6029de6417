// Blocklist answers as contract §13 reads them: the listing ranges, the list's own refusals, and
// DNS failures, each with its cause.
import { expect, test } from "bun:test";
import { classify } from "../../../src/doctor/blocklists/answer.ts";

const answered = (...records: string[]) => classify({ ok: true, records });
const failed = (cause: string, missing = false) => classify({ ok: false, missing, cause } as never);

test("127.0.0.2–254 and 127.0.1.2–254 are listings", () => {
  for (const ip of ["127.0.0.2", "127.0.0.10", "127.0.0.254", "127.0.1.2", "127.0.1.254"]) expect(answered(ip)).toEqual({ state: "listed", answer: ip, cause: "" });
  expect(answered("127.0.0.2", "127.0.0.4")).toEqual({ state: "listed", answer: "127.0.0.2,127.0.0.4", cause: "" });
});

test("127.255.255.0/24 and 127.0.1.255 are the list refusing the query: unknown with the cause, never listed", () => {
  expect(answered("127.255.255.254")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/refused the resolver/) });
  expect(answered("127.255.255.255")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/quota/) });
  expect(answered("127.255.255.252")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/malformed/) });
  expect(answered("127.255.255.1")).toMatchObject({ state: "unknown" });
  expect(answered("127.0.1.255")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/refused/) });
  // A refusal beside a listing code is still a refusal.
  expect(answered("127.0.0.2", "127.255.255.254").state).toBe("unknown");
});

test("answers outside the ranges are unknown; NXDOMAIN and no A record are clear; SERVFAIL and timeouts unknown", () => {
  expect(answered("127.0.0.1").state).toBe("unknown");
  expect(answered("192.0.2.1").state).toBe("unknown");
  expect(answered("127.0.0.255").state).toBe("unknown");
  expect(failed("ENOTFOUND", true)).toEqual({ state: "clear", answer: "", cause: "" });
  expect(failed("ENODATA", true).state).toBe("clear");
  expect(failed("ESERVFAIL")).toEqual({ state: "unknown", answer: "", cause: "SERVFAIL" });
  expect(failed("ETIMEOUT")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/timeout/) });
});
