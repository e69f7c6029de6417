import { describe, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAccessService } from "../../src/core/access.ts";
import { createDomainService } from "../../src/core/domains.ts";
import { createMockResolver } from "../../src/dns.ts";
import { ensureAccount } from "../../src/core/account.ts";
import { withScene } from "../../src/core/actor.ts";
import { createAuditLog } from "../../src/core/audit.ts";

async function setup() {
  const store = openSqliteStore(":memory:", ["us", "eu"]);
  const now = () => 1_800_000_000_000;
  const access = createAccessService({ control: store.control, now });
  const domains = createDomainService({ control: store.control, resolver: createMockResolver({}), now, zones: { names: ["us", "eu"], default: "us" },
    dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "track.test" } });
  await ensureAccount(store.control, access, now());
  await domains.add("a.test");
  await domains.add("b.test", { zone: "eu" });
  return { store, access, domains };
}

describe("API keys", () => {
  test("are stored as hashes and the secret is never stored", async () => {
    const { store, access } = await setup();
    const k = await access.createKey({ kind: "domain", domain: "a.test" });
    const stored = await store.control.getKey(k.id);
    expect(stored?.hash).not.toContain(k.key.split(".")[2]!);
    expect(JSON.stringify(await access.listKeys())).not.toContain(k.key.split(".")[2]!);
  });
  test("authenticate to a principal scoped to their domain", async () => {
    const { access } = await setup();
    const k = await access.createKey({ kind: "domain", domain: "a.test" });
    const p = await access.authenticate(k.key);
    expect(p).toMatchObject({ kind: "domain", keyId: k.id });
    expect(p?.domain?.name).toBe("a.test");
  });
  test("a wrong secret, a malformed key or a swapped kind prefix are refused", async () => {
    const { access } = await setup();
    const k = await access.createKey({ kind: "domain", domain: "a.test" });
    expect(await access.authenticate(k.key.slice(0, -1) + (k.key.endsWith("a") ? "b" : "a"))).toBeNull();
    expect(await access.authenticate("garbage")).toBeNull();
    expect(await access.authenticate(k.key.replace(/^sk\./, "pk."))).toBeNull();
    expect(await access.authenticate("")).toBeNull();
  });
  test("a revoked key stops working at once", async () => {
    const { access } = await setup();
    const k = await access.createKey({ kind: "account" });
    expect(await access.authenticate(k.key)).not.toBeNull();
    await access.revokeKey(k.id);
    expect(await access.authenticate(k.key)).toBeNull();
    expect((await access.listKeys()).map((x) => x.id)).not.toContain(k.id);
  });
  test("update changes label and grants, keeps the secret, and refuses revoked keys", async () => {
    const { access } = await setup();
    const k = await access.createKey({ kind: "account", label: "old", grants: ["a/b"] });
    expect(await access.updateKey(k.id, { grants: ["c/d"] })).toMatchObject({ id: k.id, label: "old", grants: ["c/d"] });
    expect((await access.authenticate(k.key))?.grants).toEqual(["c/d"]);
    expect((await access.updateKey(k.id, { label: "new" })).grants).toEqual(["c/d"]);
    await access.revokeKey(k.id);
    await expect(access.updateKey(k.id, { label: "x" })).rejects.toThrow(/not found/);
  });
  test("a domain key needs an existing domain", async () => {
    const { access } = await setup();
    await expect(access.createKey({ kind: "domain", domain: "nope.test" })).rejects.toThrow(/not found/);
  });
});

describe("SMTP credentials", () => {
  test("authenticate as LOGIN@DOMAIN and are hashed", async () => {
    const { store, access } = await setup();
    const c = await access.setCredential("a.test", "app", "pa55word-long");
    expect(c.login).toBe("app@a.test");
    expect((await access.authenticateSmtp("app@a.test", "pa55word-long"))?.name).toBe("a.test");
    expect(await access.authenticateSmtp("app@a.test", "wrong")).toBeNull();
    expect(await access.authenticateSmtp("app@b.test", "pa55word-long")).toBeNull();
    const d = (await store.control.getDomain("a.test"))!;
    expect((await store.control.getCredential(d.id, "app"))?.hash).not.toContain("pa55word-long");
  }, 30_000); // five Argon2id runs (unknown logins cost one too), slow on a loaded machine
});

describe("domains", () => {
  test("get RSA-2048 and Ed25519 DKIM keys and publishable records", async () => {
    const { domains } = await setup();
    const records = await domains.records("a.test");
    const dkim = records.filter((r) => r.purpose === "dkim");
    expect(dkim.map((r) => r.name)).toEqual(["s1._domainkey.a.test", "s1e._domainkey.a.test"]);
    expect(dkim[0]!.value).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjAN/);
    expect(dkim[1]!.value).toMatch(/^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
    expect(records.map((r) => r.purpose)).toEqual(["spf", "dkim", "dkim", "dmarc", "tls-rpt", "bounce-mx", "bounce-spf", "tracking"]);
    expect(records.find((r) => r.purpose === "dmarc")!.value).toBe("v=DMARC1; p=none; rua=mailto:dmarc@bounces.a.test");
    expect(records.find((r) => r.purpose === "tls-rpt")).toMatchObject({ name: "_smtp._tls.a.test", value: "v=TLSRPTv1; rua=mailto:tlsrpt@bounces.a.test" });
  });
  test("verify activates only when the DKIM record is published, or with force", async () => {
    const { store, access } = await setup();
    const recs = await createDomainService({ control: store.control, resolver: createMockResolver({}), now: () => 0, zones: { names: ["us"], default: "us" },
      dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "t" } }).records("a.test");
    const dkim = recs.find((r) => r.purpose === "dkim")!;
    const published = createDomainService({ control: store.control, now: () => 0, zones: { names: ["us"], default: "us" },
      dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "t" },
      resolver: createMockResolver({ [dkim.name]: { txt: [[dkim.value.slice(0, 200), dkim.value.slice(200)]] } }) });
    const empty = createDomainService({ control: store.control, now: () => 0, zones: { names: ["us"], default: "us" },
      dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "t" }, resolver: createMockResolver({}) });
    expect((await empty.verify("b.test")).domain.state).toBe("unverified");
    expect((await published.verify("a.test")).domain.state).toBe("active");
    expect((await empty.verify("b.test", true)).domain.state).toBe("active");
    void access;
  });
  test("refuse a zone another node serves", async () => {
    const { store } = await setup();
    const remote = createDomainService({ control: store.control, resolver: createMockResolver({}), now: () => 0,
      zones: { names: ["us"], default: "us", remote: { eu: { url: "https://eu.mail.example" } } }, dns: { mtaHostname: "m", bounceDomain: "", trackingHost: "t" } });
    await expect(remote.add("z.test", { zone: "eu" })).rejects.toThrow(/served by https:\/\/eu\.mail\.example/);
  });
  test("refuse bad names, unknown zones and duplicates", async () => {
    const { domains } = await setup();
    await expect(domains.add("not a domain")).rejects.toThrow(/valid domain/);
    await expect(domains.add("c.test", { zone: "mars" })).rejects.toThrow(/unknown zone/);
    await expect(domains.add("a.test")).rejects.toThrow(/exists/);
  });
});

test("a tenant's key changed or revoked from the CLI (acting for no tenant) is recorded under the key's tenant", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const tenant = await store.control.insertTenant({ name: "acme", status: "active", createdAt: Date.now() });
  const audit = createAuditLog({ store: store.control, now: Date.now });
  const access = createAccessService({ control: store.control, now: Date.now, audit });
  await withScene(async () => {
    const k = await access.createKey({ kind: "account", tenant: tenant.id });
    await access.updateKey(k.id, { label: "renamed" });
    await access.revokeKey(k.id);
  }, { kind: "cli", id: "ops" });
  expect((await audit.list({ limit: 3 })).items.map((e) => [e.action, e.tenant])).toEqual([["key.revoke", tenant.id], ["key.update", tenant.id], ["key.create", tenant.id]]);
  await store.close();
});
