// The notice format: one notice per POST in the native shape, signed with the target's key.
import { expect, test } from "bun:test";
import { notice } from "../../../src/webhooks/formats/notice.ts";
import { hmacVerify } from "../../../src/webhooks/signing.ts";
import type { FormatContext } from "../../../src/webhooks/format.ts";

const ctx = { now: 1_800_000_000_000, domain: "", signingKey: "acct-key" } as FormatContext;
const item = { event: "ip_listed", id: "n1", timestamp: 1_800_000_000, subject: "192.0.2.1", zone: "zen.spamhaus.org", answer: "127.0.0.2" };

test("the body is {signature, event-data} with the stored notice as event-data, signed with the context's key", async () => {
  const { body, headers } = await notice.request([item], ctx);
  const parsed = JSON.parse(String(body));
  expect(parsed["event-data"]).toEqual(item);
  expect(hmacVerify("acct-key", parsed.signature)).toBe(true);
  expect(hmacVerify("domain-key", parsed.signature)).toBe(false);
  expect(headers["content-type"]).toBe("application/json");
});

test("samples per type: an address for ip_*, a domain for domain_*; never subscribed to message events; 406 is final", () => {
  const [ip] = notice.sample("ip_delisted", ctx) as { "event-data": Record<string, unknown> }[];
  expect(ip!["event-data"]).toMatchObject({ event: "ip_delisted", subject: "192.0.2.10", answer: "" });
  const [dom] = notice.sample("domain_listed", { ...ctx, domain: "example.com" }) as { "event-data": Record<string, unknown> }[];
  expect(dom!["event-data"]).toMatchObject({ event: "domain_listed", subject: "example.com", domain: "example.com", answer: "127.0.0.2" });
  expect(notice.subscribes({} as never, {} as never)).toBe(false);
  expect([notice.isFinal(406), notice.isFinal(500)]).toEqual([true, false]);
});
