// Webhook targets: per domain (or account-wide when domainId is null), per event type, in the
// format of the surface that created them. Delivery of events to them is webhooks/'s job.
import type { Store, WebhookTarget } from "./store-port.ts";
import { invalid, notFound } from "./errors.ts";
import { newId } from "./ids.ts";
import type { AuditWriter } from "./audit.ts";

export function createWebhookService(deps: { store: Store; now: () => number; audit?: AuditWriter }) {
  const { control } = deps.store;
  return {
    async create(input: Omit<WebhookTarget, "id" | "createdAt">): Promise<WebhookTarget> {
      if (!/^https?:\/\/[^\s]+$/i.test(input.url)) throw invalid("url must be an http or https URL", "url");
      const target: WebhookTarget = { ...input, id: newId(deps.now()), createdAt: deps.now() };
      await control.insertWebhook(target);
      // A domain's webhook has no tenant column: the entry carries the tenant acted for (the domain's own).
      await deps.audit?.record("webhook.create", target.id, target.tenantId ?? undefined);
      return target;
    },
    async update(target: WebhookTarget): Promise<WebhookTarget> {
      if (!/^https?:\/\/[^\s]+$/i.test(target.url)) throw invalid("url must be an http or https URL", "url");
      await control.updateWebhook(target);
      await deps.audit?.record("webhook.update", target.id);
      return target;
    },
    /** Targets of a domain (including its tenant's account-wide ones); null lists every target; `tenant`: only that tenant's. */
    list: (domainId: number | null, tenant?: number) => control.listWebhooks(domainId, tenant),
    async remove(id: string): Promise<void> {
      if (!(await control.deleteWebhook(id))) throw notFound(`webhook ${id} not found`);
      await deps.audit?.record("webhook.delete", id);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
