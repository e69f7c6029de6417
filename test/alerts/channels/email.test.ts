// Which domain alert mail is sent as (the delivery itself runs in test/alerts/service.test.ts
// through the real MTA): the active domain mta.hostname is or lies under, else the first active one.
import { expect, test } from "bun:test";
import { alertSenderDomain } from "../../../src/alerts/channels/email.ts";
import type { Domain } from "../../../src/core/model.ts";

const d = (id: number, name: string, state = "active") => ({ id, name, state }) as Domain;

test.each([
  ["mta.example.com", [d(1, "other.test"), d(2, "example.com")], "example.com"],
  ["mx.mail.example.com", [d(1, "example.com"), d(2, "mail.example.com")], "mail.example.com"],
  ["example.com", [d(3, "example.com"), d(1, "other.test")], "example.com"],
  ["host.unrelated.test", [d(5, "b.test"), d(2, "a.test")], "a.test"],
  ["mta.example.com", [d(1, "example.com", "unverified"), d(2, "b.test")], "b.test"],
  ["mta.example.com", [d(1, "example.com", "disabled")], null],
] as [string, Domain[], string | null][])("%s with %p sends as %p", (host, domains, want) => {
  expect(alertSenderDomain(domains, host)?.name ?? null).toBe(want);
});
