// The low-level readers of report fields (src/inbound/report-fields.ts), on a stranger's field values however shaped.
import { expect, test } from "bun:test";
import { cleanAddress, cleanHost } from "../../src/inbound/report-fields.ts";

test("comments go from addresses and host names", () => {
  expect(cleanAddress("rfc822; a@x.example (the user) (again)")).toBe("a@x.example");
  expect(cleanAddress("rfc822; (note) <a@x.example>")).toBe("a@x.example");
  expect(cleanHost("dns; mx.x.example. (192.0.2.1)")).toBe("mx.x.example");
  expect(cleanHost("dns; (comment)mx.x.example")).toBe("mx.x.example");
});

test("a comment left open stays, and a run of openings is read once", () => {
  expect(cleanAddress("rfc822; a@x.example (open")).toBe("a@x.example");
  const opens = "(".repeat(300_000);
  expect(cleanAddress(`rfc822; a@x.example (c) ${opens}`)).toBe("a@x.example");
  expect(cleanHost(`dns; ${opens}`)).toBe(opens);
  expect(cleanAddress(`rfc822; <a@x.example> ${"(x)".repeat(100_000)}${opens}`)).toBe("a@x.example");
});
