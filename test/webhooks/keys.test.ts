// The HMAC keys webhooks are signed with, over a real (in-memory) store: a domain's own, each
// tenant's for its account-level targets (the primary's is the installation's), and the account
// key a post for a domain is signed with (Mailgun routes' forwards): its domain's tenant's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import type { Store } from "../../src/core/store-port.ts";
import { createSigningKeys, tenantSigningKey } from "../../src/webhooks/keys.ts";
import { createOutbound } from "../../src/webhooks/outbound.ts";
import { createMockResolver } from "../../src/dns.ts";

const NOW = 1_800_000_000_000;
const INSTALLATION = "installation-key";
let store: Store;
beforeAll(async () => {
  store = await openSqliteStore(":memory:", ["us"]);
  for (const [name, tenantId] of [["primary.test", 0], ["acme.test", 3]] as const) {
    await store.control.insertDomain({ name, zone: "us", wildcard: false, dkimSelector: "s", keys: [], validation: false, botDetection: false,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month", tenantId }, NOW);
  }
});
afterAll(async () => { await store.close(); });

test("each tenant has its own key, derived from the installation's; the primary's is the installation's", async () => {
  const keys = createSigningKeys({ store, installationKey: INSTALLATION });
  expect(await keys.forTenant(0)).toBe(INSTALLATION);
  const three = await keys.forTenant(3);
  expect(three).toMatch(/^[0-9a-f]{48}$/);
  expect(three).not.toBe(await keys.forTenant(4));
  expect(three).toBe(tenantSigningKey(INSTALLATION, 3));
  expect(tenantSigningKey("another installation", 3)).not.toBe(three);
  expect(await keys.forDomain(null)).toBe(INSTALLATION);
});

test("a post for a domain is signed, account-wide, with its domain's tenant's key; an account-level target with its own tenant's", async () => {
  const keys = createSigningKeys({ store, installationKey: INSTALLATION });
  const outbound = createOutbound({ resolver: createMockResolver({}), now: () => NOW, config: { allow_private: true, timeout: 1000 }, keys, eventWebhookKey: "" });
  const post = (domain: string) => outbound.context({ url: "http://127.0.0.1:9/", domain, target: null });
  expect((await post("acme.test")).accountSigningKey).toBe(await keys.forTenant(3));
  expect((await post("primary.test")).accountSigningKey).toBe(INSTALLATION);
  expect((await post("")).accountSigningKey).toBe(INSTALLATION);
  const target = { id: "t", domainId: null, tenantId: 3, events: ["delivered"], url: "http://127.0.0.1:9/", format: "mailgun", extra: {}, createdAt: NOW };
  expect((await outbound.context({ url: target.url, domain: "acme.test", target })).signingKey).toBe(await keys.forTenant(3));
  expect((await outbound.context({ url: target.url, domain: "primary.test", target: { ...target, tenantId: 0 } })).signingKey).toBe(INSTALLATION);
  expect((await post("acme.test")).signingKey).toBe(await keys.forDomain("acme.test"));
});
