// Webhook targets: per domain (or account-wide when domainId is null), per event type, in the
// format of the surface that created them. Delivery of events to them is webhooks/'s job.
import type { Store, WebhookTarget } from "./store-port.ts";
import { invalid, notFound } from "./errors.ts";
import { newId } from "./ids.ts";
import type { AuditWriter } from "./audit.ts";
import { domainTenant } from "./tenants.ts";

export function createWebhookService(deps: { store: Store; now: () => number; audit?: AuditWriter }) {
  const { control } = deps.store;
  /**
   * The tenant whose audit log a change to `t` belongs in, whoever acts (the CLI acts for none): a
   * domain's target its domain's tenant (as for the domain's other data), an account-wide one its
   * tenant column; undefined (the acting tenant) for an account-wide target read back without one.
   */
  async function ownerOf(t: Pick<WebhookTarget, "domainId" | "tenantId">): Promise<number | undefined> {
    const domain = t.domainId === null ? null : await control.getDomainById(t.domainId);
    return domain ? domainTenant(domain) : t.tenantId ?? undefined;
  }
  return {
    async create(input: Omit<WebhookTarget, "id" | "createdAt">): Promise<WebhookTarget> {
      if (!/^https?:\/\/[^\s]+$/i.test(input.url)) throw invalid("url must be an http or https URL", "url");
      const target: WebhookTarget = { ...input, id: newId(deps.now()), createdAt: deps.now() };
      await control.insertWebhook(target);
      await deps.audit?.record("webhook.create", target.id, await ownerOf(target));
      return target;
    },
    async update(target: WebhookTarget): Promise<WebhookTarget> {
      if (!/^https?:\/\/[^\s]+$/i.test(target.url)) throw invalid("url must be an http or https URL", "url");
      await control.updateWebhook(target);
      await deps.audit?.record("webhook.update", target.id, await ownerOf(target));
      return target;
    },
    /** Targets of a domain (including its tenant's account-wide ones); null lists every target; `tenant`: only that tenant's. */
    list: (domainId: number | null, tenant?: number) => control.listWebhooks(domainId, tenant),
    async remove(id: string): Promise<void> {
      // Read before it is gone, for its owner (one scan: a store has few targets and no lookup by id).
      const target = (await control.listWebhooks(null)).find((w) => w.id === id);
      if (!(await control.deleteWebhook(id))) throw notFound(`webhook ${id} not found`);
      await deps.audit?.record("webhook.delete", id, target ? await ownerOf(target) : undefined);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
