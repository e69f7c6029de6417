// The webhook service's audit entries carry the tenant: an account-wide target its own tenant
// column (else the tenant the request acts for), a domain's target its domain's tenant (the CLI's
// changes to a tenant's webhooks: test/cli/event-webhook.test.ts).
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAuditLog } from "../../src/core/audit.ts";
import { createWebhookService } from "../../src/core/webhooks.ts";
import { withScene } from "../../src/core/actor.ts";

test("webhook.create names the target's tenant, else the acting tenant", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const audit = createAuditLog({ store: store.control, now: Date.now });
  const webhooks = createWebhookService({ store, now: Date.now, audit });
  const base = { events: [], url: "http://127.0.0.1:1/hook", format: "mailgun", extra: {} };
  const made: string[] = [];
  await withScene(async () => {
    made.push((await webhooks.create({ ...base, domainId: null, tenantId: 3 })).id);
    made.push((await webhooks.create({ ...base, domainId: null })).id);
  }, { kind: "key", id: "k1", tenant: 2 });
  await withScene(async () => { made.push((await webhooks.create({ ...base, domainId: null })).id); }, { kind: "key", id: "k0" });
  const items = (await audit.list({ action: "webhook.create" })).items;
  expect(items.map((e) => `${e.target} ${e.tenant}`).reverse()).toEqual([`${made[0]} 3`, `${made[1]} 2`, `${made[2]} 0`]);
  await store.close();
});
