import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { MockZone } from "../../../src/dns.ts";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
const dns: Record<string, MockZone> = {};
beforeAll(async () => { env = await startSpEnv({ dns }); });
afterAll(async () => { await env.close(); });

describe("sending domains through the sparkpost client", () => {
  test("create returns the generated DKIM public key; get shows it without `domain`", async () => {
    const created = await env.account.sendingDomains.create({ domain: "Mail.Shop.test", generate_dkim: true });
    expect(created.results).toMatchObject({ message: "Successfully Created domain.", domain: "mail.shop.test",
      dkim: { signing_domain: "mail.shop.test", selector: "s1", headers: "from:to:subject:date" } });
    expect(created.results.dkim.public).toMatch(/^MII[A-Za-z0-9+/=]+$/);
    const got = await env.account.sendingDomains.get("mail.shop.test");
    expect(got.results.domain).toBeUndefined();
    expect(got.results.dkim.public).toBe(created.results.dkim.public);
    expect(got.results.status).toMatchObject({ ownership_verified: false, dkim_status: "unverified", compliance_status: "valid" });
  });

  test("list shows every domain to an account key, only its own to a domain key, and honours filters", async () => {
    const all = await env.account.sendingDomains.list();
    expect(all.results.map((d: { domain: string }) => d.domain).sort()).toEqual(["example.com", "mail.shop.test"]);
    const own = await env.domain.sendingDomains.list();
    expect(own.results.map((d: { domain: string }) => d.domain)).toEqual(["example.com"]);
    const valid = await env.account.get({ uri: "sending-domains", qs: { dkim_status: "valid", ownership_verified: true } });
    expect(valid.results.map((d: { domain: string }) => d.domain)).toEqual(["example.com"]);
  });

  test("verify checks DNS and answers the flat status with dns records", async () => {
    const before = await env.account.sendingDomains.verify("mail.shop.test", { dkim_verify: true });
    expect(before.results).toMatchObject({ ownership_verified: false, dkim_status: "unverified" });
    expect(before.results.dns.dkim_record).toMatch(/^k=rsa; h=sha256; p=/);
    expect(before.results.dns.dkim_error).toContain("s1._domainkey.mail.shop.test");
    for (const r of await env.t.app.domains.records("mail.shop.test")) {
      if (r.type === "TXT") (dns[r.name] ??= {}).txt = [...(dns[r.name]?.txt ?? []), [r.value]];
    }
    const after = await env.account.sendingDomains.verify("mail.shop.test", { dkim_verify: true, spf_verify: true });
    expect(after.results).toMatchObject({ ownership_verified: true, dkim_status: "valid", spf_status: "valid" });
    expect(after.results.dns.dkim_error).toBeUndefined();
    expect((await env.t.app.domains.get("mail.shop.test"))!.state).toBe("active");
  });

  test("after a DKIM rotation, dkim is the signing key's, not the retiring one's", async () => {
    const [rsa] = await env.t.app.dkimKeys.rotate("mail.shop.test", { now: true });
    const got = await env.account.sendingDomains.get("mail.shop.test");
    expect(got.results.dkim).toMatchObject({ selector: rsa!.selector, public: rsa!.record.value.split("p=")[1] });
  });

  test("update changes tracking settings", async () => {
    const res = await env.account.sendingDomains.update("mail.shop.test", { open_tracking: true, click_tracking: true, tracking_domain: "ignored.test" });
    expect(res.results).toEqual({ message: "Successfully Updated domain.", domain: "mail.shop.test" });
    expect(await env.t.app.domains.get("mail.shop.test")).toMatchObject({ openTracking: true, clickTracking: true });
  });

  test("delete answers 204 (the client resolves an empty string); then get is 404 1600", async () => {
    await env.account.sendingDomains.create({ domain: "gone.test" });
    expect(await env.account.sendingDomains.delete("gone.test")).toBe("");
    const err = await failure(env.account.sendingDomains.get("gone.test"));
    expect(err.statusCode).toBe(404);
    expect(err.errors[0]).toMatchObject({ code: "1600", description: "Domain 'gone.test' does not exist" });
  });
});

describe("sending domain errors and scope", () => {
  test("a duplicate is 409 1602 and a bad name 422 1300", async () => {
    const dup = await failure(env.account.sendingDomains.create({ domain: "example.com" }));
    expect(dup.statusCode).toBe(409);
    expect(dup.errors[0]!.code).toBe("1602");
    const bad = await failure(env.account.sendingDomains.create({ domain: "nodot" }));
    expect(bad.statusCode).toBe(422);
    expect(bad.errors[0]!.code).toBe("1300");
    const missing = await failure(env.account.sendingDomains.create({}));
    expect(missing.errors[0]!.code).toBe("1400");
  });

  test("a domain key cannot create, delete, verify or read another domain", async () => {
    expect((await failure(env.domain.sendingDomains.create({ domain: "x.test" }))).statusCode).toBe(403);
    expect((await failure(env.domain.sendingDomains.delete("example.com"))).statusCode).toBe(403);
    expect((await failure(env.domain.sendingDomains.verify("example.com", {}))).statusCode).toBe(403);
    expect((await failure(env.domain.sendingDomains.get("mail.shop.test"))).statusCode).toBe(403);
    expect((await env.domain.sendingDomains.get("example.com")).results.status.ownership_verified).toBe(true);
  });
});
