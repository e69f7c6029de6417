// The store contract for control data (shared by every zone and, on PostgreSQL, every node):
// the account and its secrets, domains and DKIM keys, API keys, SMTP credentials, webhook targets,
// console sessions and inbound routing rules.
import { expect, test } from "bun:test";
import type { Store, StoredKey } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const newDomain = (name: string) => ({ name, zone: "us", wildcard: false, dkimSelector: "s1", validation: false, botDetection: false,
  openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month",
  keys: [{ selector: "s1", algorithm: "rsa-sha256" as const, privateKeyPem: "PRIV-RSA", publicKey: "PUB-RSA" },
    { selector: "s1e", algorithm: "ed25519-sha256" as const, privateKeyPem: "PRIV-ED", publicKey: "PUB-ED" }] });

export function controlContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test.skipIf(!openPeer)("the change mark moves when another connection writes domains, webhooks or tenants, and only then", async () => {
    const store = await open();
    const peer = await openPeer!(store);
    const before = await store.control.changeMark();
    expect(await store.control.changeMark()).toBe(before);
    await peer.control.insertDomain(newDomain("mark.test"), NOW);
    const inserted = await store.control.changeMark();
    expect(inserted).not.toBe(before);
    await peer.control.updateDomain("mark.test", { state: "disabled" }, NOW + 1);
    const updated = await store.control.changeMark();
    expect(updated).not.toBe(inserted);
    await peer.control.insertWebhook({ id: "wh-mark", domainId: null, events: [], url: "https://hooks.example/x", format: "native", extra: {}, createdAt: NOW });
    const hooked = await store.control.changeMark();
    expect(hooked).not.toBe(updated);
    await peer.control.deleteDomain("mark.test");
    const deleted = await store.control.changeMark();
    expect(deleted).not.toBe(hooked);
    // Tenants are cached with domains (a send reads its domain's tenant): a suspension elsewhere moves the mark.
    await peer.control.updateTenant(0, { monthlyLimit: 5 });
    expect(await store.control.changeMark()).not.toBe(deleted);
    await peer.close();
    await store.close();
  });

  test("the account, its secret and the event webhook key pair", async () => {
    const store = await open();
    const c = store.control;
    expect(await c.getAccount()).toBeNull();
    await expect(c.getSecret()).rejects.toThrow(/no account/);
    await c.createAccount({ id: 1, webhookSigningKey: "wsk", createdAt: NOW, secret: "s3cret" });
    expect(await c.getAccount()).toEqual({ id: 1, webhookSigningKey: "wsk", createdAt: NOW });
    expect(await c.getSecret()).toBe("s3cret");
    expect(await c.getEventWebhookKeys()).toBeNull();
    await c.setEventWebhookKeys({ privateKeyPem: "PEM", publicKey: "PUB" });
    expect(await c.getEventWebhookKeys()).toEqual({ privateKeyPem: "PEM", publicKey: "PUB" });
    await store.close();
  });

  test("domains: read by name (any case) and id, listed, updated, deleted with their keys; the webhook key is set once", async () => {
    const store = await open();
    const c = store.control;
    const a = await c.insertDomain(newDomain("a.test"), NOW);
    const b = await c.insertDomain({ ...newDomain("b.test"), zone: "eu", wildcard: true }, NOW + 1);
    expect(a).toMatchObject({ name: "a.test", zone: "us", state: "unverified", wildcard: false, createdAt: NOW, updatedAt: NOW });
    expect((await c.getDomain("A.TEST"))?.id).toBe(a.id);
    expect(await c.getDomainById(b.id)).toEqual(b);
    expect(await c.getDomainById(a.id + b.id + 100)).toBeNull();
    expect((await c.listDomains()).map((d) => d.name)).toEqual(["a.test", "b.test"]);
    const keys = await c.getDkimKeys(a.id);
    expect(keys.map((k) => [k.algorithm, k.privateKeyPem, k.publicKey, k.domainId])).toEqual([
      ["rsa-sha256", "PRIV-RSA", "PUB-RSA", a.id], ["ed25519-sha256", "PRIV-ED", "PUB-ED", a.id]]);
    const updated = await c.updateDomain("a.test", { state: "active", openTracking: true, limitMax: 50, limitWindow: "day" }, NOW + 5);
    expect(updated).toMatchObject({ state: "active", openTracking: true, clickTracking: false, limitMax: 50, limitWindow: "day", updatedAt: NOW + 5 });
    expect(await c.updateDomain("nope.test", { inbound: true }, NOW)).toBeNull();
    expect(await c.domainWebhookKey(a.id, "first")).toBe("first");
    expect(await c.domainWebhookKey(a.id, "second")).toBe("first");
    expect(await c.domainWebhookKey(a.id + b.id + 100, "x")).toBeNull();
    expect(await c.deleteDomain("a.test")).toBe(true);
    expect(await c.deleteDomain("a.test")).toBe(false);
    expect(await c.getDkimKeys(a.id)).toEqual([]);
    await store.close();
  });

  test("API keys: stored, listed while live, relabelled, touched, revoked; a domain's keys go with it", async () => {
    const store = await open();
    const c = store.control;
    const d = await c.insertDomain(newDomain("k.test"), NOW);
    const key = (id: string, domainId: number | null, at: number): StoredKey => ({ id, kind: domainId ? "domain" : "account", domainId, label: id,
      grants: [], createdAt: at, lastUsedAt: null, hash: `h-${id}`, revokedAt: null });
    await c.insertKey(key("k1", null, NOW));
    await c.insertKey(key("k2", d.id, NOW + 1));
    expect(await c.getKey("k2")).toEqual(key("k2", d.id, NOW + 1));
    expect(await c.getKey("k9")).toBeNull();
    expect(await c.updateKey("k1", { label: "ops", grants: ["metrics/view"] })).toBe(true);
    expect(await c.updateKey("k9", { label: "x" })).toBe(false);
    await c.touchKeys(new Map([["k1", NOW + 10], ["k2", NOW + 20]]));
    expect(await c.getKey("k1")).toMatchObject({ label: "ops", grants: ["metrics/view"], lastUsedAt: NOW + 10 });
    expect(await c.revokeKey("k1", NOW + 30)).toBe(true);
    expect(await c.revokeKey("k1", NOW + 31)).toBe(false);
    expect(await c.updateKey("k1", { label: "again" })).toBe(false);
    expect((await c.getKey("k1"))?.revokedAt).toBe(NOW + 30);
    expect((await c.listKeys()).map((k) => k.id)).toEqual(["k2"]);
    await c.deleteDomain("k.test");
    expect(await c.getKey("k2")).toBeNull();
    await store.close();
  });

  test("SMTP credentials: upserted by login, listed in login order, deleted", async () => {
    const store = await open();
    const c = store.control;
    const d = await c.insertDomain(newDomain("c.test"), NOW);
    await c.upsertCredential({ domainId: d.id, login: "zed", hash: "h1", createdAt: NOW });
    await c.upsertCredential({ domainId: d.id, login: "amy", hash: "h2", createdAt: NOW });
    await c.upsertCredential({ domainId: d.id, login: "zed", hash: "h3", createdAt: NOW + 5 });
    expect(await c.getCredential(d.id, "zed")).toEqual({ domainId: d.id, login: "zed", hash: "h3", createdAt: NOW });
    expect((await c.listCredentials(d.id)).map((x) => x.login)).toEqual(["amy", "zed"]);
    expect(await c.deleteCredential(d.id, "amy")).toBe(true);
    expect(await c.deleteCredential(d.id, "amy")).toBe(false);
    expect(await c.getCredential(d.id, "amy")).toBeNull();
    await store.close();
  });

  test("webhook targets: a domain's list includes account-wide targets; updated and deleted", async () => {
    const store = await open();
    const c = store.control;
    const d = await c.insertDomain(newDomain("w.test"), NOW);
    const other = await c.insertDomain(newDomain("o.test"), NOW);
    const hook = (id: string, domainId: number | null, at: number) => ({ id, domainId, events: ["delivered"], url: `https://h.test/${id}`,
      format: "mailgun", extra: { n: 1 }, createdAt: at });
    await c.insertWebhook(hook("w1", d.id, NOW));
    await c.insertWebhook(hook("w2", null, NOW + 1));
    await c.insertWebhook(hook("w3", other.id, NOW + 2));
    expect((await c.listWebhooks(d.id)).map((w) => w.id)).toEqual(["w1", "w2"]);
    expect((await c.listWebhooks(null)).map((w) => w.id)).toEqual(["w1", "w2", "w3"]);
    await c.updateWebhook({ ...hook("w1", d.id, NOW), events: [], url: "https://h.test/new", format: "sendgrid", extra: {} });
    expect((await c.listWebhooks(d.id))[0]).toEqual({ ...hook("w1", d.id, NOW), events: [], url: "https://h.test/new", format: "sendgrid", extra: {} });
    expect(await c.deleteWebhook("w2")).toBe(true);
    expect(await c.deleteWebhook("w2")).toBe(false);
    await store.close();
  });

  test("console sessions: by token hash, deleted one by one or by expiry, and with their key", async () => {
    const store = await open();
    const c = store.control;
    await c.insertKey({ id: "sk", kind: "account", domainId: null, label: "", grants: [], createdAt: NOW, lastUsedAt: null, hash: "h", revokedAt: null });
    const s = (tokenHash: string, expiresAt: number) => ({ tokenHash, keyId: "sk", userId: null, csrf: `c-${tokenHash}`, createdAt: NOW, expiresAt });
    await c.insertSession(s("t1", NOW + 10));
    await c.insertSession(s("t2", NOW + 20));
    await c.insertSession(s("t3", NOW + 30));
    expect(await c.getSession("t2")).toEqual(s("t2", NOW + 20));
    expect(await c.deleteSessions({ tokenHash: "t2" })).toBe(1);
    expect(await c.deleteSessions({ expiredBy: NOW + 15 })).toBe(1);
    expect(await c.getSession("t1")).toBeNull();
    expect(await c.deleteSessions({})).toBe(0);
    expect(await c.getSession("t3")).not.toBeNull();
    await store.close();
  });

  test("inbound rules: per kind, in creation order, updated and deleted", async () => {
    const store = await open();
    const c = store.control;
    const route = (id: string, at: number, priority: number) => ({ id, kind: "route" as const, domainId: null,
      spec: { priority, description: id, expression: "catch_all()", actions: ["stop()"] }, createdAt: at });
    await c.insertRule(route("r2", NOW + 1, 1));
    await c.insertRule(route("r1", NOW, 0));
    await c.insertRule({ id: "h.test", kind: "parse-setting", domainId: null, spec: { hostname: "h.test", url: "https://x.test", spamCheck: false, sendRaw: true }, createdAt: NOW });
    expect((await c.listRules("route")).map((r) => r.id)).toEqual(["r1", "r2"]);
    expect(await c.getRule("parse-setting", "h.test")).toMatchObject({ spec: { sendRaw: true } });
    expect(await c.getRule("route", "h.test")).toBeNull();
    expect(await c.updateRule({ ...route("r1", NOW, 5) })).toBe(true);
    expect((await c.getRule("route", "r1"))?.spec.priority).toBe(5);
    expect(await c.updateRule(route("zz", NOW, 1))).toBe(false);
    expect(await c.deleteRule("route", "r2")).toBe(true);
    expect(await c.deleteRule("route", "r2")).toBe(false);
    await store.close();
  });
}
