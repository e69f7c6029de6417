import { describe, expect, test } from "bun:test";
import { createMockResolver, type Resolver } from "../../src/dns.ts";
import type { ProbeOutcome, ValidationResult } from "../../src/validation/result.ts";
import { createValidator, type ValidatorDeps } from "../../src/validation/verdict.ts";

const MX = (host: string) => ({ mx: [{ exchange: host, priority: 10 }] });
const ZONES = {
  "example.com": MX("mx.example.com"),
  "gmail.com": MX("gmail-smtp-in.l.google.com"),
  "mailinator.com": MX("mail.mailinator.com"),
  "gmial.com": MX("mx.gmial.com"),
  "a-only.example": { a: ["192.0.2.7"] },
  "nomail.example": { mx: [{ exchange: ".", priority: 0 }] },
  "xn--bcher-kva.de": MX("mx.xn--bcher-kva.de"),
};
const T0 = 1_767_225_600_000;

const timingOut: Resolver = (() => {
  const fail = async (): Promise<never> => {
    throw Object.assign(new Error("timeout"), { code: "ETIMEOUT" });
  };
  return { mx: fail, txt: fail, a: fail, aaaa: fail, cname: fail };
})();

const validator = (over: Partial<ValidatorDeps> = {}) =>
  createValidator({ resolver: createMockResolver(ZONES), now: () => T0, ...over });

type Want = Partial<Omit<ValidationResult, "checks">> & { checks?: Partial<ValidationResult["checks"]> };

describe("validate", () => {
  const CASES: [string, string, Want][] = [
    [
      "an ordinary address at a domain with MX is deliverable",
      "Jane.Doe@Example.com",
      {
        result: "deliverable", reason: "accepted_email", sendex: 0.9,
        email: "jane.doe@example.com", user: "jane.doe", domain: "example.com",
      },
    ],
    ["bad syntax is undeliverable as invalid_email", "jane@@example.com", { result: "undeliverable", reason: "invalid_email", sendex: 0 }],
    [
      "a too-long local part is invalid_email",
      `${"x".repeat(65)}@example.com`,
      { reason: "invalid_email", checks: { syntax_issues: ["local part is longer than 64 octets"] } },
    ],
    [
      "a domain with no records is undeliverable as invalid_domain",
      "jane@nowhere.example",
      { result: "undeliverable", reason: "invalid_domain", checks: { has_mx_or_a: false, dns: "none" } },
    ],
    [
      "a null MX domain is undeliverable",
      "jane@nomail.example",
      { result: "undeliverable", reason: "invalid_domain", checks: { is_null_mx: true } },
    ],
    [
      "an A-record-only domain is risky",
      "jane@a-only.example",
      { result: "risky", reason: "low_deliverability", checks: { has_mx: false, has_mx_or_a: true, mx_hosts: ["a-only.example"] } },
    ],
    ["a role address is flagged and still deliverable", "postmaster@example.com", { result: "deliverable", role: true, sendex: 0.8 }],
    ["a free provider is flagged", "someone@gmail.com", { result: "deliverable", free: true, role: false }],
    [
      "a disposable domain is risky low_quality",
      "temp@mailinator.com",
      { result: "risky", reason: "low_quality", disposable: true, sendex: 0.1 },
    ],
    [
      "a typo of a popular domain is risky with a suggestion",
      "jane@gmial.com",
      { result: "risky", reason: "low_quality", did_you_mean: "jane@gmail.com", checks: { is_suspected_typo: true } },
    ],
    [
      "a typo domain that does not exist is undeliverable but still suggested",
      "jane@hotmial.com",
      { result: "undeliverable", reason: "invalid_domain", did_you_mean: "jane@hotmail.com" },
    ],
    [
      "an IDN address keeps its Unicode domain and resolves the punycode one",
      "Kunde@Bücher.de",
      {
        result: "deliverable", email: "kunde@bücher.de", domain: "bücher.de",
        checks: { ascii_domain: "xn--bcher-kva.de", is_idn: true },
      },
    ],
    [
      "a display-name form is validated by its address",
      "Jane <jane@example.com>",
      { result: "deliverable", email: "jane@example.com" },
    ],
  ];
  for (const [what, input, want] of CASES) {
    test(what, async () => {
      const { checks, ...rest } = want;
      const got = await validator().validate(input);
      expect(got).toMatchObject(rest);
      if (checks) expect(got.checks).toMatchObject(checks);
    });
  }

  test("carries every field of the S2 validation result", async () => {
    const got = await validator().validate("jane@example.com");
    const fields = [
      "result", "reason", "role", "free", "disposable", "accept_all", "did_you_mean", "sendex", "email", "user",
      "domain", "message", "success", "timeLogged",
    ];
    for (const f of fields) expect(got).toHaveProperty(f);
    expect(got.timeLogged).toBe(T0 / 1000);
  });

  test("reports a DNS timeout as unknown and does not cache it", async () => {
    const v = validator({ resolver: timingOut });
    const first = await v.validate("jane@example.com");
    expect(first).toMatchObject({ result: "unknown", reason: "timeout" });
    expect((await v.validate("jane@example.com")).checks.is_cached).toBe(false);
  });

  test("reports an address with bounce history as rejected without asking DNS", async () => {
    let dnsCalls = 0;
    const inner = createMockResolver(ZONES);
    const got = await validator({
      resolver: { ...inner, mx: (n) => (dnsCalls++, inner.mx(n)) },
      hasBounced: async (email) => email === "gone@example.com",
    }).validate("Gone@Example.com");
    expect(got).toMatchObject({ result: "undeliverable", reason: "rejected_email" });
    expect(got.checks).toMatchObject({ has_bounced: true, dns: "skipped" });
    expect(dnsCalls).toBe(0);
  });

  test("turns an SMTP probe's answer into the verdict", async () => {
    const outcomes: Record<string, ProbeOutcome> = {
      "yes@example.com": { kind: "accept", code: 250 },
      "no@example.com": { kind: "reject", code: 550, enhancedCode: "5.1.1" },
      "any@example.com": { kind: "accept_all", code: 250 },
      "grey@example.com": { kind: "unavailable", code: 451 },
    };
    const v = validator({ probe: async (email) => outcomes[email] ?? { kind: "no_connect" } });
    const yes = await v.validate("yes@example.com");
    expect(yes).toMatchObject({ result: "deliverable", sendex: 1 });
    expect(yes.checks).toMatchObject({ smtp: "accept", smtp_code: 250 });
    expect(await v.validate("no@example.com")).toMatchObject({ result: "undeliverable", reason: "rejected_email" });
    expect(await v.validate("any@example.com")).toMatchObject({ result: "risky", accept_all: true });
    expect(await v.validate("grey@example.com")).toMatchObject({ result: "unknown", reason: "unavailable_smtp" });
    expect(await v.validate("down@example.com")).toMatchObject({ result: "unknown", reason: "no_connect" });
  });

  test("gives the probe the punycode address and the MX hosts", async () => {
    const calls: [string, string[]][] = [];
    await validator({ probe: async (e, h) => (calls.push([e, h]), { kind: "accept" }) }).validate("kunde@bücher.de");
    expect(calls).toEqual([["kunde@xn--bcher-kva.de", ["mx.xn--bcher-kva.de"]]]);
  });

  test("does not probe disposable or mistyped domains", async () => {
    let probes = 0;
    const v = validator({ probe: async () => (probes++, { kind: "accept" }) });
    await v.validate("a@mailinator.com");
    await v.validate("a@gmial.com");
    expect(probes).toBe(0);
  });

  test("answers from the cache within the TTL and asks again after it", async () => {
    let now = T0;
    let probes = 0;
    const v = validator({ now: () => now, cacheTtlMs: 60_000, probe: async () => (probes++, { kind: "accept" }) });
    await v.validate("jane@example.com");
    expect((await v.validate("JANE@example.com")).checks.is_cached).toBe(true);
    now += 60_000;
    expect((await v.validate("jane@example.com")).checks.is_cached).toBe(false);
    expect(probes).toBe(2);
  });

  test("reports a failing dependency as unexpected_error instead of throwing", async () => {
    const storeDown = async (): Promise<boolean> => {
      throw new Error("store down");
    };
    const got = await validator({ hasBounced: storeDown }).validate("jane@example.com");
    expect(got).toMatchObject({ result: "unknown", reason: "unexpected_error", success: false, email: "jane@example.com" });
  });

  test("refuses absurdly long input without parsing it", async () => {
    expect(await validator().validate(`${"a".repeat(600)}@example.com`)).toMatchObject({ reason: "invalid_email" });
  });
});
