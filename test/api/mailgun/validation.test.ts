import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
beforeAll(async () => {
  h = await startHarness({ dns: {
    "good.test": { mx: [{ exchange: "mx.good.test", priority: 10 }] },
    "mailinator.com": { mx: [{ exchange: "mx.mailinator.com", priority: 10 }] },
  } });
});
afterAll(async () => { await h.close(); });

describe("address validation", () => {
  test("mg.validate.get answers Mailgun's v4 shape", async () => {
    const ok = await h.mg.validate.get("Jane@good.test");
    expect(ok).toEqual({ address: "Jane@good.test", did_you_mean: null, is_disposable_address: false, is_role_address: false,
      reason: [], result: "deliverable", risk: "low", root_address: null } as never);
    expect(await h.mg.validate.get("jane@nowhere.test")).toMatchObject({ result: "undeliverable", risk: "high", reason: ["no_mx"] });
    expect(await h.mg.validate.get("not an address")).toMatchObject({ result: "undeliverable", risk: "high" });
    expect(await h.mg.validate.get("x@mailinator.com")).toMatchObject({ result: "do_not_send", is_disposable_address: true, reason: ["mailbox_is_disposable_address"] });
    expect(await h.mg.validate.get("admin@good.test")).toMatchObject({ result: "deliverable", risk: "medium", is_role_address: true });
  });

  test("POST form works too; a missing address is 400", async () => {
    const res = await h.call("POST", "/v4/address/validate", { body: new URLSearchParams({ address: "a@good.test" }) });
    expect((await jsonOf(res)).result).toBe("deliverable");
    const missing = await h.call("GET", "/v4/address/validate");
    expect(missing.status).toBe(400);
    expect(await jsonOf(missing)).toEqual({ message: "address parameter is missing" });
  });

  test("the older /v3/address/private/validate shape", async () => {
    const res = await h.call("GET", `/v3/address/private/validate?address=${encodeURIComponent("Jane Doe <jane@good.test>")}`);
    expect(await jsonOf(res)).toEqual({ address: "Jane Doe <jane@good.test>", did_you_mean: null, is_disposable_address: false, is_role_address: false,
      is_valid: true, mailbox_verification: null, parts: { display_name: "Jane Doe", domain: "good.test", local_part: "jane" }, reason: null });
    const bad = await jsonOf(await h.call("GET", "/v3/address/private/validate?address=nope&mailbox_verification=true"));
    expect(bad).toMatchObject({ is_valid: false, mailbox_verification: "unknown", parts: { domain: null, local_part: null } });
    expect(typeof bad.reason).toBe("string");
  });

  test("/v3/address/private/parse splits a list into parsed and unparseable", async () => {
    const q = encodeURIComponent('Alice <alice@example.com>, bob@example.com; "Last, First" <lf@example.com>, example.com');
    const res = await h.call("GET", `/v3/address/private/parse?addresses=${q}&syntax_only=true`);
    expect(await jsonOf(res)).toEqual({ parsed: ["Alice <alice@example.com>", "bob@example.com", "Last, First <lf@example.com>"], unparseable: ["example.com"] });
  });
});

describe("address/parse", () => {
  test("reads repeated addresses values as one list", async () => {
    const res = await h.call("GET", "/v3/address/parse?addresses=a%40example.com&addresses=Bob%20%3Cbob%40example.com%3E&syntax_only=true");
    expect(await jsonOf(res)).toEqual({ parsed: ["a@example.com", "Bob <bob@example.com>"], unparseable: [] });
  });
});
