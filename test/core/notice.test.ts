// Account notices made from blocklist changes.
import { expect, test } from "bun:test";
import { blocklistNotice, isNoticeType, NOTICE_TYPES } from "../../src/core/notice.ts";

test("a listing or delisting of an address or a host becomes its notice type, in Unix seconds", () => {
  const base = { subject: "192.0.2.1", at: 1_800_000_000_500, zone: "zen.spamhaus.org", entryKind: "ip" as const, answer: "127.0.0.2", domain: null };
  expect(blocklistNotice({ ...base, to: "listed" }, "n1")).toEqual({ event: "ip_listed", id: "n1", timestamp: 1_800_000_000, subject: "192.0.2.1", zone: "zen.spamhaus.org", answer: "127.0.0.2" });
  expect(blocklistNotice({ ...base, to: "clear", answer: "" }, "n2").event).toBe("ip_delisted");
  const host = blocklistNotice({ ...base, subject: "email.example.com", entryKind: "domain", domain: "example.com", to: "listed" }, "n3");
  expect(host).toMatchObject({ event: "domain_listed", subject: "email.example.com", domain: "example.com" });
  expect(NOTICE_TYPES.every(isNoticeType)).toBe(true);
  expect(isNoticeType("delivered")).toBe(false);
});
