// Mailgun domains (src/api/mailgun/domains.ts) through the official mailgun.js client: create with DNS
// records, verify, list, disable, delete. Credentials and tracking live in domain-settings.test.ts.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import type { MockZone } from "../../../src/dns.ts";
import { startHarness, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
const zones: Record<string, MockZone> = {};
beforeAll(async () => { h = await startHarness({ dns: zones }); });
afterAll(async () => { await h.close(); });

describe("domains through mailgun.js", () => {
  test("create answers the domain with its sending and receiving DNS records", async () => {
    const d = await h.mg.domains.create({ name: "new.test", wildcard: true, smtp_password: "s3cret-pass-123" });
    expect(d).toMatchObject({ name: "new.test", state: "unverified", wildcard: true, type: "custom", smtp_login: "postmaster@new.test" });
    expect(d.created_at).toBeInstanceOf(Date);
    expect(Number.isNaN(d.created_at.getTime())).toBe(false);
    const sending = d.sending_dns_records as unknown as { record_type: string; name: string; value: string; valid: string }[];
    expect(sending.map((r) => [r.record_type, r.name])).toContainEqual(["TXT", "s1._domainkey.new.test"]);
    expect(sending.find((r) => r.name === "new.test")!.value).toStartWith("v=spf1");
    const receiving = d.receiving_dns_records as unknown as { record_type: string; priority: string }[];
    expect(receiving[0]).toMatchObject({ record_type: "MX", priority: "10" });
    expect((await h.t.app.access.authenticateSmtp("postmaster@new.test", "s3cret-pass-123"))?.name).toBe("new.test");
    const dup = await h.mg.domains.create({ name: "new.test" }).catch((e) => e);
    expect(dup.status).toBe(400);
    const bad = await h.mg.domains.create({ name: "not a domain" }).catch((e) => e);
    expect(bad.status).toBe(400);
  });

  test("list, get and update", async () => {
    const list = await h.mg.domains.list();
    expect(list.map((d) => d.name)).toEqual(expect.arrayContaining(["example.com", "new.test"]));
    const active = await h.call("GET", "/v4/domains?state=active&limit=10");
    expect((await jsonOf(active)).items.map((d: { name: string }) => d.name)).toEqual(["example.com"]);
    const got = await h.mg.domains.get("example.com");
    expect(got).toMatchObject({ name: "example.com", state: "active", is_disabled: false });
    expect(got.sending_dns_records!.length).toBeGreaterThan(2);
    const updated = await h.mg.domains.update("new.test", { wildcard: false });
    expect(updated.wildcard).toBe(false);
    const v3 = await h.call("GET", "/v3/domains/example.com");
    expect((await jsonOf(v3)).domain.name).toBe("example.com");
  });

  test("verify checks DNS and activates the domain once the records are published", async () => {
    const before = await h.mg.domains.verify("new.test");
    expect(before.state).toBe("unverified");
    const records = await h.t.app.domains.records("new.test");
    for (const r of records.filter((x) => x.type === "TXT")) zones[r.name] = { txt: [[r.value]] };
    const after = await h.mg.domains.verify("new.test");
    expect(after.state).toBe("active");
    const dkim = (after.sending_dns_records as unknown as { name: string; valid: string }[]).find((r) => r.name === "s1._domainkey.new.test");
    expect(dkim!.valid).toBe("valid");
    const v3 = await h.call("PUT", "/v3/domains/new.test/verify");
    expect(v3.status).toBe(200);
  });

  test("PATCH /v3/{domain}/disable disables; destroy deletes", async () => {
    await h.mg.domains.create({ name: "gone.test" });
    const res = await h.call("PATCH", "/v3/gone.test/disable");
    expect(res.status).toBe(200);
    expect((await jsonOf(res)).domain).toMatchObject({ name: "gone.test", state: "disabled", is_disabled: true });
    expect(await h.mg.domains.destroy("gone.test")).toEqual({ message: "Domain has been deleted" });
    expect((await h.mg.domains.get("gone.test").catch((e) => e)).status).toBe(404);
  });
});
