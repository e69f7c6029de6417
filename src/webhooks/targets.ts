// Which webhook targets an event goes to: an inactive target (SparkPost `active: false`) gets
// nothing; otherwise the target's format decides from its stored subscription.
import type { MessageEvent } from "../core/model.ts";
import type { WebhookTarget } from "../core/store-port.ts";
import { formatNamed } from "./registry.ts";

export function isSubscribed(target: WebhookTarget, event: MessageEvent): boolean {
  if (target.extra.active === false) return false;
  return formatNamed(target.format).subscribes(target, event);
}

/**
 * SparkPost's rule (its webhooks API: a webhook the primary account creates without
 * X-MSYS-SUBACCOUNT receives the events of the primary and of every subaccount; `subaccount_id`
 * -1 on update): such an account-wide target of tenant 0 is marked `everyTenant` in its extra.
 * SendGrid's and Mailgun's account-wide targets see their own tenant's events only.
 */
export const coversEveryTenant = (t: WebhookTarget) => t.domainId === null && (t.tenantId ?? 0) === 0 && t.extra.everyTenant === true;
