// POST /v3/validations/email through @sendgrid/client: SendGrid's result shape mapped from the
// validator, domain keys only, and only for domains with validation enabled.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startHarness, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => {
  h = await startHarness({ dns: { "dest.test": { mx: [{ exchange: "mx.dest.test", priority: 10 }] }, "gmail.com": { mx: [{ exchange: "mx.gmail.com", priority: 5 }] } } });
});
afterAll(async () => { await h.close(); });

const validate = (body: Record<string, unknown>, client = h.client) =>
  client.request({ method: "POST", url: "/v3/validations/email", body }).then(([res, json]) => ({ status: res.statusCode, json }), (e) => ({ status: e.code as number, json: e.response?.body }));

describe("POST /v3/validations/email", () => {
  test("a deliverable address is Valid, in SendGrid's result shape", async () => {
    const { status, json } = await validate({ email: "Someone@Dest.test", source: "signup" });
    expect(status).toBe(200);
    expect(json).toEqual({ result: {
      email: "someone@dest.test", verdict: "Valid", score: expect.any(Number), local: "someone", host: "dest.test",
      checks: {
        domain: { has_valid_address_syntax: true, has_mx_or_a_record: true, is_suspected_disposable_address: false },
        local_part: { is_suspected_role_address: false },
        additional: { has_known_bounces: false, has_suspected_bounces: false },
      },
      source: "signup", ip_address: "127.0.0.1",
    } });
    expect(json.result.score).toBeGreaterThanOrEqual(0.8);
  });

  test("bad syntax is Invalid, a role address is flagged, a typo gets a suggestion", async () => {
    const bad = await validate({ email: "not an address" });
    expect(bad.json.result).toMatchObject({ verdict: "Invalid", score: 0, checks: { domain: { has_valid_address_syntax: false } } });
    const role = await validate({ email: "admin@dest.test" });
    expect(role.json.result.checks.local_part.is_suspected_role_address).toBe(true);
    const typo = await validate({ email: "someone@gmial.com" });
    expect(typo.json.result).toMatchObject({ suggestion: "gmail.com" });
    expect(["Risky", "Invalid"]).toContain(typo.json.result.verdict);
  });

  test("an address on the domain's bounce list has known bounces", async () => {
    await h.t.app.suppressions.add("example.com", "bounces", [{ address: "gone@dest.test", code: "550" }]);
    const { json } = await validate({ email: "gone@dest.test" });
    expect(json.result.checks.additional.has_known_bounces).toBe(true);
  });

  test("a missing email is a 400 naming the field", async () => {
    const { status, json } = await validate({ source: "x" });
    expect(status).toBe(400);
    expect(json.errors[0].field).toBe("email");
  });

  test("an account key is refused with 403", async () => {
    const { status, json } = await validate({ email: "a@dest.test" }, h.clientsFor(h.t.accountKey).client);
    expect(status).toBe(403);
    expect(json).toEqual({ errors: [{ message: "access forbidden", field: null, help: null }] });
  });

  test("a domain without email validation enabled is refused with 403", async () => {
    await h.t.app.domains.set("example.com", { validation: false });
    try {
      const { status, json } = await validate({ email: "a@dest.test" });
      expect(status).toBe(403);
      expect(json.errors[0].message).toStartWith("access forbidden");
    } finally {
      await h.t.app.domains.set("example.com", { validation: true });
    }
  });
});
